/**
 * The two ends of the real-socket experiments ({@code scripts/experiments/daemon-throughput}, {@code daemon-overload}):
 * {@code bench load}, a lightweight sender node that multicasts Ricochet DATA frames at a paced rate and answers
 * NAKs, and {@code bench sink}, an application that counts what its daemon delivers. The pure parts (pacing,
 * the retransmit ring, NAK answers, group lists, duplicate checks) have unit tests; the sockets are exercised by
 * the experiment, not by {@code mvn verify}.
 */
package io.ricochet.bench.load;
