/**
 * The failure detector's side of the control protocol: where its verdicts go
 * ({@link io.ricochet.control.verdict.FailureReporter}; {@link io.ricochet.control.verdict.GmsFailureReporter} keeps
 * the latest per node and detector and sends it to every partition's leader, again after a failover), the watch list
 * it takes from partition 0 ({@link io.ricochet.control.verdict.WatchClient}), and the detectors whose heartbeats a
 * process answers ({@link io.ricochet.control.verdict.DetectorAddresses}). The sessions are
 * {@code io.ricochet.control.link}'s; see {@code docs/design/failure-detection.md}.
 */
package io.ricochet.control.verdict;
