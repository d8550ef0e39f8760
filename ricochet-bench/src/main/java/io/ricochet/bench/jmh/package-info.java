/**
 * JMH micro-benchmarks: the engine's per-data-packet processing time (the paper's Figure 11), the XOR kernel, the
 * wire format, Algorithm 1 and the candidate datagram MACs. Run by {@code scripts/experiments/jmh} or
 * {@code scripts/bench jmh}, never by the Maven build; results in {@code docs/results/jmh/} and
 * {@code docs/results.md}.
 */
package io.ricochet.bench.jmh;
