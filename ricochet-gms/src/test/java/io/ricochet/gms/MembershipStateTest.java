package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.ricochet.control.ErrorCode;
import io.ricochet.control.GroupView;
import io.ricochet.control.MemberEvent;
import io.ricochet.control.Partitioning;
import io.ricochet.engine.MembershipEvent.Kind;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The partition's membership rules, with no network: joins, leaves, failures, recoveries and view ids. */
class MembershipStateTest {
    private static final long BASE = 1000;
    private MembershipState state;

    @BeforeEach
    void setUp() {
        Inet4Address base = (Inet4Address) InetAddresses.forString("239.255.0.0");
        state = new MembershipState(new Partitioning(0, 2), new MulticastPool(base, 9100), BASE);
        for (int node = 1; node <= 4; node++) {
            state.register(node, address(node));
        }
    }

    @Test
    void shouldPushAJoinToEveryMemberIncludingTheJoiner() throws GmsRefusal {
        join(2, 1);
        Update update = join(2, 2).orElseThrow();
        assertEquals(new MemberEvent(Kind.JOIN, 2, BASE + 2, 2, address(2)), update.event());
        assertEquals(List.of(1, 2), update.recipients());
        assertEquals(Map.of(1, address(1), 2, address(2)), update.view().members());
        assertEquals(new InetSocketAddress(InetAddresses.forString("239.255.0.2"), 9100), update.view().multicast());
    }

    @Test
    void shouldChangeNothingOnARepeatedJoin() throws GmsRefusal {
        join(2, 1);
        assertEquals(Optional.empty(), join(2, 1));
        assertEquals(BASE + 1, state.view(2).orElseThrow().viewId());
    }

    @Test
    void shouldPushALeaveToTheRemainingMembersAndTheLeaver() throws GmsRefusal {
        join(4, 1);
        join(4, 2);
        join(4, 3);
        Update update = state.leave(4, 2).orElseThrow();
        assertEquals(new MemberEvent(Kind.LEAVE, 4, BASE + 4, 2, address(2)), update.event());
        assertEquals(List.of(1, 2, 3), update.recipients());
        assertEquals(List.of(1, 3), List.copyOf(update.view().members().keySet()));
        assertEquals(Optional.empty(), state.leave(4, 2));
    }

    @Test
    void shouldDropAGroupThatEmptiesAndStartItAgainAboveEveryIssuedViewId() throws GmsRefusal {
        join(2, 1);
        join(4, 1);
        join(4, 2);
        state.leave(2, 1);
        assertEquals(Optional.empty(), state.view(2));
        assertEquals(1, state.groupCount());
        long reborn = join(2, 3).orElseThrow().event().viewId();
        assertEquals(BASE + 4, reborn, "above the highest id issued in the partition (group 4 reached BASE + 3)");
    }

    @Test
    void shouldRemoveAFailedNodeEverywhereAndPutItBackOnRecovery() throws GmsRefusal {
        join(2, 1);
        join(2, 2);
        join(4, 2);
        List<Update> failures = state.fail(2);
        assertEquals(2, failures.size());
        assertEquals(new MemberEvent(Kind.FAIL, 2, BASE + 3, 2, address(2)), failures.get(0).event());
        assertEquals(List.of(1), failures.get(0).recipients());
        assertEquals(List.of(), failures.get(1).recipients(), "group 4 emptied");
        assertEquals(Optional.empty(), state.view(4));
        assertEquals(List.of(), state.fail(2), "a repeated verdict changes nothing");

        List<Update> recoveries = state.recover(2);
        assertEquals(2, recoveries.size());
        assertEquals(Kind.JOIN, recoveries.get(0).event().kind());
        assertEquals(List.of(1, 2), recoveries.get(0).recipients());
        assertEquals(4, recoveries.get(1).view().group());
        assertFalse(state.isFailed(2));
        assertEquals(List.of(), state.recover(2));
    }

    @Test
    void shouldParkJoinsAndLeavesOfAFailedNodeUntilItRecovers() throws GmsRefusal {
        join(2, 3);
        state.fail(3);
        assertEquals(Optional.empty(), join(4, 3));
        assertEquals(Optional.empty(), state.leave(2, 3));
        assertTrue(state.isFailed(3));
        List<Update> recoveries = state.recover(3);
        assertEquals(List.of(4), recoveries.stream().map(u -> u.view().group()).toList());
    }

    @Test
    void shouldReannounceAChangedAddressInEveryGroupOfTheNode() throws GmsRefusal {
        join(2, 1);
        join(2, 2);
        InetSocketAddress moved = new InetSocketAddress(InetAddresses.forString("10.9.9.9"), 7000);
        List<Update> updates = state.register(1, moved);
        assertEquals(1, updates.size());
        assertEquals(new MemberEvent(Kind.JOIN, 2, BASE + 3, 1, moved), updates.get(0).event());
        assertEquals(List.of(), state.register(1, moved));
        assertEquals(List.of(2), state.viewsOf(1).stream().map(GroupView::group).toList());
    }

    @Test
    void shouldRefuseGroupsOfAnotherPartition() {
        GmsRefusal refusal = assertThrows(GmsRefusal.class, () -> state.join(3, 1, 0));
        assertEquals(ErrorCode.WRONG_PARTITION, refusal.code());
        assertEquals("group 3 belongs to partition 1 of 2; this is partition 0", refusal.getMessage());
        assertEquals(ErrorCode.WRONG_PARTITION, assertThrows(GmsRefusal.class, () -> state.leave(-1, 1)).code());
    }

    @Test
    void shouldRefuseUnregisteredNodesAndAMismatchedProtocol() throws GmsRefusal {
        assertEquals(ErrorCode.NOT_REGISTERED, assertThrows(GmsRefusal.class, () -> state.join(2, 99, 0)).code());
        state.join(2, 1, 7);
        assertEquals(7, state.view(2).orElseThrow().protocol(), "the protocol is carried through");
        assertEquals(ErrorCode.PROTOCOL_MISMATCH, assertThrows(GmsRefusal.class, () -> state.join(2, 2, 0)).code());
    }

    @Test
    void shouldGiveNegativeAndLargeGroupsAddressesInThePool() throws GmsRefusal {
        InetSocketAddress negative = join(-2, 1).orElseThrow().view().multicast();
        assertEquals(new InetSocketAddress(InetAddresses.forString("239.255.255.254"), 9100), negative);
        InetSocketAddress wrapped = join(65536 + 4, 1).orElseThrow().view().multicast();
        assertEquals(new InetSocketAddress(InetAddresses.forString("239.255.0.4"), 9100), wrapped);
    }

    private Optional<Update> join(int group, int node) throws GmsRefusal {
        return state.join(group, node, 0);
    }

    private static InetSocketAddress address(int node) {
        return new InetSocketAddress(InetAddresses.forString("10.0.0." + node), 5000 + node);
    }
}
