package io.ricochet.control.message;

import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.Ipv4;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * GMS to daemon: a snapshot of {@code group} at view {@code viewId}: its {@code protocol} (u8), the IPv4
 * {@code multicast} address its data goes to, its {@code members} (node id to unicast address) and their
 * {@code incarnations} (node id to the incarnation of its latest {@link Register}). Both maps have the same keys
 * and iterate in ascending node id. View ids of a group only grow; a daemon ignores a view below the one it holds.
 *
 * <p>With regions on at the GMS ({@code docs/design/regions.md}), {@code regions} splits the members into the QSM
 * regions the group spans: every member is in exactly one region. Members then listen on their region's address
 * and a message to the group goes once to every region's address instead of to {@code multicast}. Empty: no
 * regions, the group's own address serves (as without regions).
 */
public record GroupView(int group, int protocol, long viewId, InetSocketAddress multicast,
                        Map<Integer, InetSocketAddress> members, Map<Integer, Long> incarnations,
                        List<ViewRegion> regions)
        implements ControlMessage {

    /** The most members a view may list: the largest GROUP_VIEW (without regions) still fits one frame. */
    public static final int MAX_MEMBERS = (ControlCodec.MAX_LENGTH_FIELD - 1 - ControlCodec.GROUP_VIEW_FIXED_BYTES)
            / ControlCodec.MEMBER_BYTES;

    /** A view without regions. */
    public GroupView(int group, int protocol, long viewId, InetSocketAddress multicast,
                     Map<Integer, InetSocketAddress> members, Map<Integer, Long> incarnations) {
        this(group, protocol, viewId, multicast, members, incarnations, List.of());
    }

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
        regions = List.copyOf(regions);
        requirePartition(regions, members.keySet());
        if (!regions.isEmpty() && !fitsWithRegions(members.size(), regions.size())) {
            throw new IllegalArgumentException("a view of " + members.size() + " members in " + regions.size()
                    + " regions does not fit one frame");
        }
    }

    /** Whether a view of {@code members} members split into {@code regions} regions fits one frame. */
    public static boolean fitsWithRegions(int members, int regions) {
        long body = ControlCodec.GROUP_VIEW_FIXED_BYTES + (long) members * ControlCodec.MEMBER_BYTES
                + (long) regions * Ipv4.SOCKET_ADDRESS_BYTES + (regions > 0 ? 2L * members : 0);
        return regions <= members && body <= ControlCodec.MAX_LENGTH_FIELD - 1;
    }

    /**
     * Where this node listens for the group: its region's address, or the group's own without regions (or when
     * {@code node} is in no region).
     */
    public InetSocketAddress listenAddress(int node) {
        for (ViewRegion r : regions) {
            if (Collections.binarySearch(r.members(), node) >= 0) {
                return r.multicast();
            }
        }
        return multicast;
    }

    /** Where a message to the group goes: every region's address (each once), or the group's own. */
    public List<InetSocketAddress> destinations() {
        if (regions.isEmpty()) {
            return List.of(multicast);
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (ViewRegion r : regions) {
            if (!out.contains(r.multicast())) {
                out.add(r.multicast());
            }
        }
        return List.copyOf(out);
    }

    /** Every member in exactly one region, and no region names a non-member (or none at all: no regions). */
    private static void requirePartition(List<ViewRegion> regions, Set<Integer> members) {
        if (regions.isEmpty()) {
            return;
        }
        Set<Integer> seen = new HashSet<>();
        for (ViewRegion r : regions) {
            for (int node : r.members()) {
                if (!members.contains(node)) {
                    throw new IllegalArgumentException("region " + r.multicast() + " names node " + node
                            + ", not a member of the view");
                }
                if (!seen.add(node)) {
                    throw new IllegalArgumentException("node " + node + " is in two regions");
                }
            }
        }
        if (seen.size() != members.size()) {
            throw new IllegalArgumentException((members.size() - seen.size()) + " member(s) in no region");
        }
    }

    @Override
    public int type() {
        return MessageType.GROUP_VIEW;
    }
}
