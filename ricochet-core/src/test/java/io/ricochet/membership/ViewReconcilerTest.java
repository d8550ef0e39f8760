package io.ricochet.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.MembershipEvent;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ViewReconcilerTest {
    private static final int SELF = 1;
    private static final int G = 7;
    private static final InetSocketAddress MULTICAST = new InetSocketAddress("239.1.2.3", 9007);

    /** The sockets opened and closed, as "join GROUP PORT" and "leave GROUP". */
    private final List<String> sockets = new ArrayList<>();
    private final GroupSockets transport = new GroupSockets() {
        @Override
        public void joinGroup(int group, InetSocketAddress multicast) {
            sockets.add("join " + group + " " + multicast.getPort());
        }

        @Override
        public void leaveGroup(int group) {
            sockets.add("leave " + group);
        }
    };
    private final List<MembershipEvent> engine = new ArrayList<>();
    private final ViewReconciler views = new ViewReconciler(SELF, transport, engine::add);

    private static InetSocketAddress unicast(int node) {
        return new InetSocketAddress("127.0.0." + node, 7000 + node);
    }

    private static Map<Integer, InetSocketAddress> members(int... nodes) {
        Map<Integer, InetSocketAddress> m = new LinkedHashMap<>();
        for (int node : nodes) {
            m.put(node, unicast(node));
        }
        return m;
    }

    @Test
    void shouldListenOnItsRegionSendToEveryRegionAndMoveWhenItsRegionChanges() {
        InetSocketAddress mine = new InetSocketAddress("239.254.0.1", 9101);
        InetSocketAddress theirs = new InetSocketAddress("239.254.0.2", 9102);
        views.applyView(G, mine, List.of(mine, theirs), members(SELF, 5), Map.of());
        assertEquals(List.of(mine, theirs), views.destinations(G));
        assertEquals(mine, views.multicastAddress(G));
        views.applyView(G, theirs, List.of(theirs), members(SELF, 5), Map.of());
        views.applyView(G, theirs, List.of(theirs), members(SELF, 5, 6), Map.of());
        assertEquals(List.of("join 7 9101", "leave 7", "join 7 9102"), sockets);
        assertEquals(List.of(theirs), views.destinations(G));
        assertTrue(views.isMember(G));
        assertEquals(List.of(), views.destinations(G + 1));
    }

    /** Another member's JOIN as a view gives it: where its stream continues is for the member to say. */
    private static MembershipEvent fromGms(int node) {
        return new MembershipEvent(MembershipEvent.Kind.JOIN, G, node, 0, MembershipEvent.ASK_THE_SENDER);
    }

    @Test
    void shouldGiveTheEngineTheOtherMembersBeforeThisNodesOwnJoin() {
        views.applyView(G, MULTICAST, members(SELF, 5, 6), Map.of(5, 50L));

        assertEquals(List.of(new MembershipEvent(MembershipEvent.Kind.JOIN, G, 5, 50),
                fromGms(6), MembershipEvent.join(G, SELF)), engine);
        assertEquals(List.of("join 7 9007"), sockets);
        assertTrue(views.isMember(G));
        assertEquals(List.of(5, 6), views.others(G));
        assertEquals(MULTICAST, views.multicastAddress(G));
        assertEquals(unicast(5), views.unicastAddress(5));
    }

    @Test
    void shouldLeaveMembersAViewNoLongerListsAndLeaveTheGroupWhenDropped() {
        views.applyView(G, MULTICAST, members(SELF, 5, 6), Map.of());
        engine.clear();

        views.applyView(G, MULTICAST, members(SELF, 6), Map.of());
        assertEquals(List.of(fromGms(6), MembershipEvent.leave(G, 5)), engine);

        engine.clear();
        views.applyView(G, MULTICAST, members(6), Map.of());
        assertEquals(List.of(fromGms(6), MembershipEvent.leave(G, SELF)), engine);
        assertEquals(List.of("join 7 9007", "leave 7"), sockets);
        assertFalse(views.isMember(G));
    }

    @Test
    void shouldWaitForTheViewBeforeApplyingThisNodesOwnJoin() {
        views.applyEvent(MembershipEvent.join(G, SELF), unicast(SELF));

        assertEquals(List.of(), engine, "no multicast address yet: the view that follows applies the join");
        assertEquals(List.of(), sockets);
        assertFalse(views.isMember(G));
    }

    @Test
    void shouldApplyAnotherNodesEventsAndLearnItsAddress() {
        views.applyView(G, MULTICAST, members(SELF), Map.of());
        engine.clear();

        views.applyEvent(new MembershipEvent(MembershipEvent.Kind.JOIN, G, 9, 90), unicast(9));
        views.applyEvent(MembershipEvent.fail(G, 9), null);

        assertEquals(List.of(new MembershipEvent(MembershipEvent.Kind.JOIN, G, 9, 90), MembershipEvent.fail(G, 9)),
                engine);
        assertEquals(unicast(9), views.unicastAddress(9));
        assertEquals(List.of(), views.others(G));
        assertNull(views.multicastAddress(G + 1));
    }

    @Test
    void shouldCloseTheSocketWhenThisNodeLeaves() {
        views.applyView(G, MULTICAST, members(SELF, 5), Map.of());

        views.applyEvent(MembershipEvent.leave(G, SELF), null);

        assertEquals(List.of("join 7 9007", "leave 7"), sockets);
        assertFalse(views.isMember(G));
    }
}
