package io.ricochet.gms;

import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.ViewRegion;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The membership one GMS partition holds, with no I/O: per group (of the groups it owns) the members with their
 * registrations, the protocol, the view id and the multicast address; the latest registration (address and
 * incarnation) of each node; and, for each node the failure detector reported failed, the groups it was in. Each
 * method applies one request and returns the {@link Update}s to push. The rules are those of
 * {@code docs/design/membership.md}.
 *
 * <p>View ids: a group's view id grows by one per change. A group created (or created again after it emptied)
 * starts above every view id this partition has issued and above the floor {@link #raiseViewIdFloor} set, so view
 * ids of a group never go back, also when the partition's whole replicated state is lost: {@link LogApplier}
 * raises the floor to the leader's clock (in ms, shifted) with every command.
 *
 * <p>This is the state machine of a partition's Raft group: every replica applies the same commands in the same
 * order ({@link LogApplier}), so nothing here may depend on anything but its inputs (no clock, no randomness, no
 * iteration over a hash order that shows in a result).
 */
final class MembershipState {
    private final Partitioning partitioning;
    private final MulticastPool pool;
    private final SortedMap<Integer, GroupState> groups = new TreeMap<>();
    private final Map<Integer, Registration> registrations = new HashMap<>();
    /** Failed node -> (group -> protocol) of the groups it is to be put back into when it recovers. */
    private final Map<Integer, SortedMap<Integer, Integer>> failed = new HashMap<>();
    private final RackAssignments racks = new RackAssignments();
    private long highestViewId;
    /** Null: regions off. */
    private final RegionAssigner regions;
    /** Whether members changed since the regions were last assigned. */
    private boolean regionsStale;

    MembershipState(Partitioning partitioning, MulticastPool pool, long initialViewId) {
        this(partitioning, pool, initialViewId, RegionSettings.OFF);
    }

    MembershipState(Partitioning partitioning, MulticastPool pool, long initialViewId, RegionSettings regions) {
        this.partitioning = partitioning;
        this.pool = pool;
        this.highestViewId = initialViewId;
        this.regions = regions.enabled() ? new RegionAssigner(regions) : null;
    }

    /**
     * With regions on, recomputes every group's regions if any group's members changed since the last time, and
     * returns the groups whose regions changed, ascending (their view ids moved on: {@link GroupState#assignRegions}).
     * Empty with regions off. {@link LogApplier} calls it once after each command.
     */
    List<Integer> assignRegions() {
        if (regions == null || !regionsStale) {
            return List.of();
        }
        regionsStale = false;
        Map<Integer, List<ViewRegion>> assigned = regions.assign(groups);
        List<Integer> changed = new ArrayList<>();
        groups.forEach((group, state) -> {
            if (state.assignRegions(assigned.get(group))) {
                changed.add(group);
                highestViewId = Math.max(highestViewId, state.viewId());
            }
        });
        return changed;
    }

    /** After a snapshot is restored: the regions of its groups, recomputed, with no view id moving. */
    void restoreRegions() {
        if (regions != null) {
            Map<Integer, List<ViewRegion>> assigned = regions.assign(groups);
            groups.forEach((group, state) -> state.restoreRegions(assigned.get(group)));
        }
        regionsStale = false;
    }

    /** Whether groups get regions. */
    boolean regionsEnabled() {
        return regions != null;
    }

    /**
     * Records {@code node}'s latest registration. A changed address or incarnation is announced again (JOIN) in
     * every group the node is in: with a new incarnation, the node's daemon restarted before the failure detector
     * noticed. A new incarnation of a failed node is a new process: the groups remembered for the old one are
     * forgotten, so its recovery puts it back only into the groups the new process joins.
     */
    List<Update> register(int node, Registration registration) {
        Registration previous = registrations.put(node, registration);
        SortedMap<Integer, Integer> parked = failed.get(node);
        if (parked != null && registration.isRestartOf(previous)) {
            parked.clear();
        }
        List<Update> updates = new ArrayList<>();
        if (previous != null && !previous.equals(registration)) {
            for (GroupState state : List.copyOf(groups.values())) {
                if (state.contains(node)) {
                    updates.add(add(state, node, registration));
                }
            }
        }
        return updates;
    }

    /**
     * Adds {@code node} to {@code group}. Empty when nothing changed: the node was already in with this
     * registration, or it is failed, in which case the join is remembered for its recovery.
     */
    Optional<Update> join(int group, int node, int protocol) throws GmsRefusal {
        requireOwned(partitioning, group);
        Registration registration = registrations.get(node);
        if (registration == null) {
            throw new GmsRefusal(ErrorCode.NOT_REGISTERED, "node " + node + " has not sent REGISTER");
        }
        GroupState state = groups.get(group);
        if (state != null && state.protocol() != protocol) {
            throw new GmsRefusal(ErrorCode.PROTOCOL_MISMATCH, "group " + group + " runs protocol "
                    + state.protocol() + ", not " + protocol);
        }
        SortedMap<Integer, Integer> parked = failed.get(node);
        if (parked != null) {
            parked.put(group, protocol);
            return Optional.empty();
        }
        if (state != null && !state.contains(node) && state.size() >= GroupView.MAX_MEMBERS) {
            throw new GmsRefusal(ErrorCode.GROUP_FULL, "group " + group + " already has " + state.size()
                    + " members, the most a view can list");
        }
        if (state == null) {
            state = new GroupState(group, protocol, pool.addressOf(group), highestViewId);
            groups.put(group, state);
        }
        return Optional.ofNullable(add(state, node, registration));
    }

    /** Removes {@code node} from {@code group}; empty if it was not in (for a failed node: forgets the group). */
    Optional<Update> leave(int group, int node) throws GmsRefusal {
        requireOwned(partitioning, group);
        SortedMap<Integer, Integer> parked = failed.get(node);
        if (parked != null) {
            parked.remove(group);
            return Optional.empty();
        }
        GroupState state = groups.get(group);
        return state == null ? Optional.empty()
                : Optional.ofNullable(remove(group, state, node, MemberEventKind.LEAVE));
    }

    /** Removes a failed {@code node} from all its groups and remembers them; nothing if it is already failed. */
    List<Update> fail(int node) {
        if (failed.containsKey(node)) {
            return List.of();
        }
        SortedMap<Integer, Integer> parked = new TreeMap<>();
        List<Update> updates = new ArrayList<>();
        for (Map.Entry<Integer, GroupState> e : List.copyOf(groups.entrySet())) {
            GroupState state = e.getValue();
            if (state.contains(node)) {
                parked.put(e.getKey(), state.protocol());
                updates.add(remove(e.getKey(), state, node, MemberEventKind.FAIL));
            }
        }
        failed.put(node, parked);
        return updates;
    }

    /**
     * Puts a recovered {@code node} back into the groups it was in when it failed (unless it registered a new
     * incarnation since) and those it joined since. A remembered group that now runs another protocol, or is full,
     * is skipped.
     */
    List<Update> recover(int node) {
        SortedMap<Integer, Integer> parked = failed.remove(node);
        List<Update> updates = new ArrayList<>();
        if (parked == null || !registrations.containsKey(node)) {
            return updates;
        }
        parked.forEach((group, protocol) -> {
            try {
                join(group, node, protocol).ifPresent(updates::add);
            } catch (GmsRefusal skipped) {
                // The group changed protocol or filled up while the node was failed: it stays out.
            }
        });
        return updates;
    }

    /** The current view of {@code group}, if it has members. */
    Optional<GroupView> view(int group) {
        return Optional.ofNullable(groups.get(group)).map(GroupState::view);
    }

    /** The views of every group {@code node} is in, in ascending group order. */
    List<GroupView> viewsOf(int node) {
        List<GroupView> views = new ArrayList<>();
        groups.values().stream().filter(s -> s.contains(node)).forEach(s -> views.add(s.view()));
        return views;
    }

    /** The latest registration of {@code node}, or null if it never registered. */
    Registration registrationOf(int node) {
        return registrations.get(node);
    }

    boolean isFailed(int node) {
        return failed.containsKey(node);
    }

    int groupCount() {
        return groups.size();
    }

    /** Which detector watches which daemons (the daemons' racks come with their REGISTERs). */
    RackAssignments racks() {
        return racks;
    }

    /** The highest view id issued so far, or the floor if higher. */
    long highestViewId() {
        return highestViewId;
    }

    /** Makes groups created from now on start above {@code floor} (no effect if ids are already past it). */
    void raiseViewIdFloor(long floor) {
        highestViewId = Math.max(highestViewId, floor);
    }

    /** The groups with members, by id (read-only; for snapshots). */
    SortedMap<Integer, GroupState> groups() {
        return Collections.unmodifiableSortedMap(groups);
    }

    /** Every node's latest registration (read-only; for snapshots). */
    Map<Integer, Registration> registrations() {
        return Collections.unmodifiableMap(registrations);
    }

    /** Failed nodes and the (group -> protocol) each is to be put back into (read-only; for snapshots). */
    Map<Integer, SortedMap<Integer, Integer>> failedNodes() {
        return Collections.unmodifiableMap(failed);
    }

    /** Restores a registration from a snapshot. */
    void restoreRegistration(int node, Registration registration) {
        registrations.put(node, registration);
    }

    /** Restores a group from a snapshot; its members must be registered. */
    void restoreGroup(GroupState state) {
        groups.put(state.group(), state);
    }

    /** Restores a failed node and the groups it is to be put back into from a snapshot. */
    void restoreFailed(int node, SortedMap<Integer, Integer> parked) {
        failed.put(node, new TreeMap<>(parked));
    }

    /** The multicast address group {@code group} gets. */
    InetSocketAddress multicastOf(int group) {
        return pool.addressOf(group);
    }

    /** Refuses {@code group} with WRONG_PARTITION unless {@code partitioning} owns it, naming the owner. */
    static void requireOwned(Partitioning partitioning, int group) throws GmsRefusal {
        if (!partitioning.owns(group)) {
            throw new GmsRefusal(ErrorCode.WRONG_PARTITION, "group " + group + " belongs to partition "
                    + partitioning.ownerOf(group) + " of " + partitioning.count() + "; this is partition "
                    + partitioning.index());
        }
    }

    /** Adds {@code node} or changes its registration; the JOIN update, or null if nothing changed. */
    private Update add(GroupState state, int node, Registration registration) {
        if (!state.put(node, registration)) {
            return null;
        }
        regionsStale = true;
        highestViewId = Math.max(highestViewId, state.viewId());
        GroupView view = state.view();
        return new Update(event(MemberEventKind.JOIN, view.group(), view.viewId(), node, registration), view,
                state.memberIds());
    }

    /** Removes {@code node}; the LEAVE or FAIL update (a leaver hears its own LEAVE), or null if it was not in. */
    private Update remove(int group, GroupState state, int node, MemberEventKind kind) {
        Registration registration = state.remove(node);
        if (registration == null) {
            return null;
        }
        regionsStale = true;
        highestViewId = Math.max(highestViewId, state.viewId());
        List<Integer> recipients = state.memberIds();
        if (kind == MemberEventKind.LEAVE) {
            recipients.add(node);
            recipients.sort(null);
        }
        if (state.isEmpty()) {
            groups.remove(group);
        }
        return new Update(event(kind, group, state.viewId(), node, registration), state.view(), recipients);
    }

    private static MemberEvent event(MemberEventKind kind, int group, long viewId, int node,
                                     Registration registration) {
        return new MemberEvent(kind, group, viewId, node, registration.address(), registration.incarnation());
    }
}
