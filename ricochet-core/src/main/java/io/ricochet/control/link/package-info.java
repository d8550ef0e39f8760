/**
 * A client's sessions with the GMS: {@link io.ricochet.control.link.ControlLink} keeps one reconnecting session with
 * the leader of a replicated partition (following SERVING and REDIRECT, with backoff), and
 * {@link io.ricochet.control.link.GmsClient} is the daemon's membership client, one link per partition, heard through
 * {@link io.ricochet.control.link.MembershipListener}. Where the partitions are
 * ({@link io.ricochet.control.link.GmsAddresses}), which one owns a group
 * ({@link io.ricochet.control.link.Partitioning}) and the TCP transport ({@link io.ricochet.control.link.TcpChannels})
 * are here too; the GMS shares the last two. See {@code docs/design/membership.md}.
 */
package io.ricochet.control.link;
