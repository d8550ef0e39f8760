package io.ricochet.membership;

import io.ricochet.engine.GroupRoster;
import io.ricochet.engine.MembershipEvent;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.agrona.collections.Int2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what the GMS pushes (a group's full view on join or reconnect, and single member events) into the engine's
 * membership events and this node's socket joins and leaves, and keeps the addresses the engine's frames go to.
 * Its own record (a {@link GroupRoster}) is kept in step with every event handed to the engine, so the daemon
 * can answer "am I in G?" whatever protocol runs. Owned by the engine's thread. The daemon drives it from the GMS;
 * a simulation can drive it with views of its own and sockets that do nothing.
 */
public final class ViewReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(ViewReconciler.class);

    private final int self;
    private final GroupSockets transport;
    private final Consumer<MembershipEvent> engine;
    private final GroupRoster membership;
    private final Map<Integer, InetSocketAddress> addresses = new HashMap<>();
    /** Where this node listens for each group: the group's address, or its region's. */
    private final Map<Integer, InetSocketAddress> multicastOf = new HashMap<>();
    /** Where a multicast to each group goes: the group's address, or every region's of the group. */
    /** Read for every multicast frame: primitive keys, no boxing per packet. */
    private final Int2ObjectHashMap<List<InetSocketAddress>> destinationsOf = new Int2ObjectHashMap<>();

    /**
     * @param self      this node's id
     * @param transport where this node's group sockets are opened and closed
     * @param engine    where the membership events go (the engine, on the same thread)
     */
    public ViewReconciler(int self, GroupSockets transport, Consumer<MembershipEvent> engine) {
        this.self = self;
        this.transport = transport;
        this.engine = engine;
        this.membership = new GroupRoster(self);
    }

    /**
     * A full view of {@code group}: reconcile the engine's view with it. The members it lists are given to the
     * engine before this node's own JOIN: they were there before us, so their streams start at the first packet we
     * see instead of at 0 (no NAKs for history we never had).
     */
    public void applyView(int group, InetSocketAddress multicast, Map<Integer, InetSocketAddress> members,
                   Map<Integer, Long> incarnations) {
        applyView(group, multicast, List.of(multicast), members, incarnations);
    }

    /**
     * As {@link #applyView(int, InetSocketAddress, Map, Map)}, for a group whose members listen on several addresses
     * (QSM regions, {@code docs/design/regions.md}): this node listens on {@code listen} and multicasts to every one
     * of {@code destinations}. A member whose listen address changed (it moved to another region) leaves the old
     * address (the transport keeps it while another group uses it) and joins the new one; what was in flight to the
     * old address is missed and recovered like any other loss.
     */
    public void applyView(int group, InetSocketAddress listen, List<InetSocketAddress> destinations,
                          Map<Integer, InetSocketAddress> members, Map<Integer, Long> incarnations) {
        LOG.info("group {}: view {} at {}{}", group, members.keySet(), listen,
                destinations.equals(List.of(listen)) ? "" : ", sent to " + destinations);
        InetSocketAddress previous = multicastOf.put(group, listen);
        destinationsOf.put(group, List.copyOf(destinations));
        addresses.putAll(members);
        for (Map.Entry<Integer, InetSocketAddress> m : members.entrySet()) {
            if (m.getKey() != self) {
                toEngine(new MembershipEvent(MembershipEvent.Kind.JOIN, group, m.getKey(),
                        incarnations.getOrDefault(m.getKey(), 0L)));
            }
        }
        for (int listed : new ArrayList<>(membership.others(group))) { // a copy: leaving changes it
            if (!members.containsKey(listed)) {
                toEngine(MembershipEvent.leave(group, listed));
            }
        }
        boolean inView = members.containsKey(self);
        boolean member = membership.isMember(group);
        if (inView && !member) {
            transport.joinGroup(group, listen);
            toEngine(MembershipEvent.join(group, self));
        } else if (inView && previous != null && !previous.equals(listen)) {
            LOG.info("group {}: moves from {} to {}", group, previous, listen);
            transport.leaveGroup(group);
            transport.joinGroup(group, listen);
        } else if (!inView && member) {
            toEngine(MembershipEvent.leave(group, self));
            transport.leaveGroup(group);
        }
    }

    /** One membership change; {@code unicast} is the node's address (with a JOIN), or null. */
    public void applyEvent(MembershipEvent event, InetSocketAddress unicast) {
        LOG.info("group {}: node {} {}", event.group(), event.node(), event.kind());
        boolean join = event.kind() == MembershipEvent.Kind.JOIN;
        if (unicast != null && join) {
            addresses.put(event.node(), unicast);
        }
        if (event.node() == self) {
            InetSocketAddress multicast = multicastOf.get(event.group());
            if (join && multicast == null) {
                return; // The group's view, with its multicast address, follows and applies the join.
            }
            if (join) {
                transport.joinGroup(event.group(), multicast);
            } else {
                transport.leaveGroup(event.group());
            }
        }
        toEngine(event);
    }

    private void toEngine(MembershipEvent event) {
        if (event.kind() == MembershipEvent.Kind.JOIN) {
            membership.join(event.group(), event.node());
        } else {
            membership.leave(event.group(), event.node());
        }
        engine.accept(event);
    }

    public boolean isMember(int group) {
        return membership.isMember(group);
    }

    /** The groups this node is in, ascending. */
    public List<Integer> myGroups() {
        return new ArrayList<>(membership.groups());
    }

    /** The other members of {@code group}, ascending. */
    public List<Integer> others(int group) {
        return new ArrayList<>(membership.others(group));
    }

    /** Where this node listens for {@code group}, or null if no view of it arrived. */
    public InetSocketAddress multicastAddress(int group) {
        return multicastOf.get(group);
    }

    /** Where a multicast to {@code group} goes (each address once), or an empty list if no view of it arrived. */
    public List<InetSocketAddress> destinations(int group) {
        List<InetSocketAddress> destinations = destinationsOf.get(group);
        return destinations == null ? List.of() : destinations;
    }

    /** Where a unicast to {@code node} goes, or null if no view or event named its address. */
    public InetSocketAddress unicastAddress(int node) {
        return addresses.get(node);
    }
}
