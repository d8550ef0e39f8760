/**
 * The group membership service, partitioned by group id (paper, section 4.2.4): per-group member lists, JOIN /
 * LEAVE / FAIL pushed to the members of the affected group. It knows nothing of regions; every daemon derives its
 * multi-group view from these events through {@code io.ricochet.engine.MembershipEvent}.
 *
 * <p>{@link io.ricochet.gms.GmsMain} runs one partition; {@link io.ricochet.gms.GmsServer} is its Netty edge;
 * {@code MembershipState} holds the membership with no I/O; {@code DaemonRequests} and
 * {@code DetectorReports} are the partition's two roles. The protocol and the rules are in
 * {@code docs/design/membership.md}.
 */
package io.ricochet.gms;
