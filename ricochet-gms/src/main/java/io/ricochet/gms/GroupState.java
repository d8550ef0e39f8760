package io.ricochet.gms;

import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.ViewRegion;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** One group at the GMS: its protocol, multicast address, current view id and members. No I/O. */
final class GroupState {
    private final int group;
    private final int protocol;
    private final InetSocketAddress multicast;
    private final SortedMap<Integer, Registration> members = new TreeMap<>();
    private long viewId;
    private List<ViewRegion> regions = List.of();
    /** The view id when the regions were last assigned: a later one means the members changed since. */
    private long regionsViewId;

    /** An empty group; its first change takes view {@code previousViewId + 1}. */
    GroupState(int group, int protocol, InetSocketAddress multicast, long previousViewId) {
        this.group = group;
        this.protocol = protocol;
        this.multicast = multicast;
        this.viewId = previousViewId;
        this.regionsViewId = previousViewId;
    }

    /**
     * Gives the group {@code assigned} regions; returns whether they changed. A change of regions is a change of
     * the group: the view id moves on, unless the members already changed since the last assignment (the view id
     * moved then, and the views of that change carry the new regions).
     */
    boolean assignRegions(List<ViewRegion> assigned) {
        boolean changed = !assigned.equals(regions);
        if (changed && viewId == regionsViewId) {
            viewId++;
        }
        regions = assigned;
        regionsViewId = viewId;
        return changed;
    }

    /** Whether the regions hold exactly the current members (none: trivially, as no regions are sent then). */
    private boolean regionsCover() {
        int covered = 0;
        for (ViewRegion r : regions) {
            for (int node : r.members()) {
                if (!members.containsKey(node)) {
                    return false;
                }
                covered++;
            }
        }
        return regions.isEmpty() || covered == members.size();
    }

    /** Sets the regions as restored from a snapshot (recomputed from the members): the view id does not move. */
    void restoreRegions(List<ViewRegion> assigned) {
        regions = assigned;
        regionsViewId = viewId;
    }

    int group() {
        return group;
    }

    int protocol() {
        return protocol;
    }

    long viewId() {
        return viewId;
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    int size() {
        return members.size();
    }

    boolean contains(int node) {
        return members.containsKey(node);
    }

    /**
     * Adds {@code node} or changes its registration (address or incarnation); returns whether anything changed (and
     * the view id moved on).
     */
    boolean put(int node, Registration registration) {
        Registration previous = members.put(node, registration);
        if (registration.equals(previous)) {
            return false;
        }
        viewId++;
        return true;
    }

    /** Removes {@code node}; returns its registration, or null if it was not a member (nothing changed). */
    Registration remove(int node) {
        Registration registration = members.remove(node);
        if (registration != null) {
            viewId++;
        }
        return registration;
    }

    /** Adds {@code node} as restored from a snapshot: the view id does not move. */
    void restore(int node, Registration registration) {
        members.put(node, registration);
    }

    /** The members and their registrations, by node id (read-only; for snapshots). */
    SortedMap<Integer, Registration> members() {
        return Collections.unmodifiableSortedMap(members);
    }

    List<Integer> memberIds() {
        return new ArrayList<>(members.keySet());
    }

    GroupView view() {
        Map<Integer, InetSocketAddress> addresses = new HashMap<>();
        Map<Integer, Long> incarnations = new HashMap<>();
        members.forEach((node, registration) -> {
            addresses.put(node, registration.address());
            incarnations.put(node, registration.incarnation());
        });
        // Regions assigned before a member came or went no longer split the members: none until the next
        // assignment (which follows in the same command). A changed address or incarnation leaves them valid.
        return new GroupView(group, protocol, viewId, multicast, addresses, incarnations,
                regionsCover() ? regions : List.of());
    }
}
