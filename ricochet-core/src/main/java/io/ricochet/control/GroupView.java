package io.ricochet.control;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * GMS to daemon: a snapshot of {@code group} at view {@code viewId}: its {@code protocol} (u8), the IPv4
 * {@code multicast} address its data goes to, and its {@code members} (node id to unicast address, iterated in
 * ascending node id). View ids of a group only grow; a daemon ignores a view at or below the one it holds.
 */
public record GroupView(int group, int protocol, long viewId, InetSocketAddress multicast,
                        Map<Integer, InetSocketAddress> members) implements ControlMessage {

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
        TreeMap<Integer, InetSocketAddress> sorted = new TreeMap<>();
        members.forEach((node, address) -> sorted.put(node, Ipv4.require(address, "address of node " + node)));
        members = Collections.unmodifiableSortedMap(sorted);
    }

    @Override
    public int type() {
        return MessageType.GROUP_VIEW;
    }
}
