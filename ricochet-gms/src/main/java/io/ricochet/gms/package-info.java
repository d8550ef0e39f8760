/**
 * The group membership service, partitioned by group id (paper, section 4.2.4): per-group member lists, JOIN /
 * LEAVE / FAIL pushed to the members of the affected group. It knows nothing of regions; every daemon derives its
 * multi-group view from these events through {@code io.ricochet.engine.MembershipEvent}. Not built yet.
 */
package io.ricochet.gms;
