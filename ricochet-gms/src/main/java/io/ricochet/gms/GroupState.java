package io.ricochet.gms;

import io.ricochet.control.GroupView;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** One group at the GMS: its protocol, multicast address, current view id and members. No I/O. */
final class GroupState {
    private final int group;
    private final int protocol;
    private final InetSocketAddress multicast;
    private final SortedMap<Integer, InetSocketAddress> members = new TreeMap<>();
    private long viewId;

    /** An empty group; its first change takes view {@code previousViewId + 1}. */
    GroupState(int group, int protocol, InetSocketAddress multicast, long previousViewId) {
        this.group = group;
        this.protocol = protocol;
        this.multicast = multicast;
        this.viewId = previousViewId;
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

    InetSocketAddress addressOf(int node) {
        return members.get(node);
    }

    /** Adds {@code node} or changes its address; returns whether anything changed (and the view id moved on). */
    boolean put(int node, InetSocketAddress address) {
        InetSocketAddress previous = members.put(node, address);
        if (address.equals(previous)) {
            return false;
        }
        viewId++;
        return true;
    }

    /** Removes {@code node}; returns its address, or null if it was not a member (nothing changed). */
    InetSocketAddress remove(int node) {
        InetSocketAddress address = members.remove(node);
        if (address != null) {
            viewId++;
        }
        return address;
    }

    List<Integer> memberIds() {
        return new ArrayList<>(members.keySet());
    }

    GroupView view() {
        return new GroupView(group, protocol, viewId, multicast, members);
    }
}
