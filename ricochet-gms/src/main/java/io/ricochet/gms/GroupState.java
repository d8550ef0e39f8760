package io.ricochet.gms;

import io.ricochet.control.GroupView;
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

    /** An empty group; its first change takes view {@code previousViewId + 1}. */
    GroupState(int group, int protocol, InetSocketAddress multicast, long previousViewId) {
        this.group = group;
        this.protocol = protocol;
        this.multicast = multicast;
        this.viewId = previousViewId;
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
        return new GroupView(group, protocol, viewId, multicast, addresses, incarnations);
    }
}
