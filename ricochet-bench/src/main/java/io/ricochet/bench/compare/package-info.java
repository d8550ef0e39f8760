/**
 * The JGroups comparison harness ({@code bench vs-jgroups}, scripts/experiments/vs-jgroups): the same members, the same
 * payloads and the same receive-side loss on both systems, packaged either as one process per member or as all
 * members in one JVM (each trial in fresh JVMs, children of the harness), and measured at the application:
 * deliveries per second and CPU per delivery (throughput), and the latency from send to delivery of exactly the
 * messages whose first copy was dropped (recovery).
 *
 * <p>A member is a {@link io.ricochet.bench.compare.GroupMember}: d JChannels (one per group) on the JGroups side, one
 * {@link io.ricochet.daemon.Daemon} with the application in its JVM on the Ricochet side. Everything stays on
 * 127.0.0.x loopback, multicast with TTL at most 1.
 */
package io.ricochet.bench.compare;
