package io.ricochet.control;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * GMS to daemon: a snapshot of {@code group} at view {@code viewId}: its {@code protocol} (u8), the IPv4
 * {@code multicast} address its data goes to, its {@code members} (node id to unicast address) and their
 * {@code incarnations} (node id to the incarnation of its latest {@link Register}). Both maps have the same keys
 * and iterate in ascending node id. View ids of a group only grow; a daemon ignores a view below the one it holds.
 */
public record GroupView(int group, int protocol, long viewId, InetSocketAddress multicast,
                        Map<Integer, InetSocketAddress> members, Map<Integer, Long> incarnations)
        implements ControlMessage {

    /** The most members a view may list: the largest GROUP_VIEW still fits one frame. */
    public static final int MAX_MEMBERS = (ControlCodec.MAX_LENGTH_FIELD - 1 - ControlCodec.GROUP_VIEW_FIXED_BYTES)
            / ControlCodec.MEMBER_BYTES;

    public GroupView {
        Fields.requireU8(protocol, "protocol");
        Ipv4.require(multicast, "multicast");
        if (members.size() > MAX_MEMBERS) {
            throw new IllegalArgumentException("a view lists at most " + MAX_MEMBERS + " members, got "
                    + members.size());
        }
        if (!members.keySet().equals(incarnations.keySet())) {
            throw new IllegalArgumentException("members " + members.keySet() + " and incarnations "
                    + incarnations.keySet() + " must name the same nodes");
        }
        TreeMap<Integer, InetSocketAddress> sortedMembers = new TreeMap<>();
        TreeMap<Integer, Long> sortedIncarnations = new TreeMap<>();
        for (Map.Entry<Integer, InetSocketAddress> member : members.entrySet()) {
            int node = member.getKey();
            sortedMembers.put(node, Ipv4.require(member.getValue(), "address of node " + node));
            sortedIncarnations.put(node, Objects.requireNonNull(incarnations.get(node), "incarnation of a node"));
        }
        members = Collections.unmodifiableSortedMap(sortedMembers);
        incarnations = Collections.unmodifiableSortedMap(sortedIncarnations);
    }

    @Override
    public int type() {
        return MessageType.GROUP_VIEW;
    }
}
