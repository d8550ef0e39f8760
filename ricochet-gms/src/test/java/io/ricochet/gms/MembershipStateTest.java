package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
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
    /** The incarnation every node registers with in {@link #setUp}. */
    private static final long FIRST = 1_700_000_000_000L;
    /** The incarnation of a restarted daemon. */
    private static final long RESTARTED = FIRST + 60_000;
    private MembershipState state;

    @BeforeEach
    void setUp() {
        Inet4Address base = (Inet4Address) InetAddresses.forString("239.255.0.0");
        state = new MembershipState(new Partitioning(0, 2), new MulticastPool(base, 9100), BASE);
        for (int node = 1; node <= 4; node++) {
            register(node, FIRST);
        }
    }

    @Test
    void shouldPushAJoinToEveryMemberIncludingTheJoiner() throws GmsRefusal {
        join(2, 1);
        Update update = join(2, 2).orElseThrow();
        assertEquals(event(MemberEventKind.JOIN, 2, BASE + 2, 2, FIRST), update.event());
        assertEquals(List.of(1, 2), update.recipients());
        assertEquals(Map.of(1, address(1), 2, address(2)), update.view().members());
        assertEquals(Map.of(1, FIRST, 2, FIRST), update.view().incarnations());
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
        assertEquals(event(MemberEventKind.LEAVE, 4, BASE + 4, 2, FIRST), update.event());
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
        assertEquals(event(MemberEventKind.FAIL, 2, BASE + 3, 2, FIRST), failures.get(0).event());
        assertEquals(List.of(1), failures.get(0).recipients());
        assertEquals(List.of(), failures.get(1).recipients(), "group 4 emptied");
        assertEquals(Optional.empty(), state.view(4));
        assertEquals(List.of(), state.fail(2), "a repeated verdict changes nothing");

        List<Update> recoveries = state.recover(2);
        assertEquals(2, recoveries.size());
        assertEquals(MemberEventKind.JOIN, recoveries.get(0).event().kind());
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
        List<Update> updates = state.register(1, new Registration(moved, FIRST));
        assertEquals(1, updates.size());
        assertEquals(new MemberEvent(MemberEventKind.JOIN, 2, BASE + 3, 1, moved, FIRST), updates.get(0).event());
        assertEquals(List.of(), state.register(1, new Registration(moved, FIRST)));
        assertEquals(List.of(2), state.viewsOf(1).stream().map(GroupView::group).toList());
    }

    @Test
    void shouldAnnounceADaemonThatRestartedBeforeDetectionAsAJoinWithItsNewIncarnation() throws GmsRefusal {
        join(2, 1);
        join(2, 2);
        join(4, 2);
        assertEquals(List.of(), register(2, FIRST), "the same process reconnecting changes nothing");
        List<Update> updates = register(2, RESTARTED);
        assertEquals(List.of(event(MemberEventKind.JOIN, 2, BASE + 3, 2, RESTARTED),
                        event(MemberEventKind.JOIN, 4, BASE + 4, 2, RESTARTED)),
                updates.stream().map(Update::event).toList());
        assertEquals(List.of(1, 2), updates.get(0).recipients(), "every member hears it, the restarted node too");
        assertEquals(Map.of(1, FIRST, 2, RESTARTED), state.view(2).orElseThrow().incarnations());
        assertEquals(RESTARTED, state.fail(2).get(0).event().incarnation(), "a FAIL names the latest incarnation");
    }

    @Test
    void shouldForgetTheGroupsOfAFailedNodeWhoseDaemonRestarted() throws GmsRefusal {
        join(2, 1);
        join(2, 2);
        join(4, 2);
        state.fail(2);
        assertEquals(List.of(), register(2, RESTARTED), "a failed node is in no group to announce");
        assertTrue(state.isFailed(2), "only the failure detector trusts a node again");
        assertEquals(Optional.empty(), join(6, 2), "the new process's joins wait for its recovery");
        List<Update> recoveries = state.recover(2);
        assertEquals(List.of(event(MemberEventKind.JOIN, 6, BASE + 5, 2, RESTARTED)),
                recoveries.stream().map(Update::event).toList(), "back in group 6 only, not in 2 or 4");
        assertEquals(Map.of(1, address(1)), state.view(2).orElseThrow().members());
    }

    @Test
    void shouldPutAFailedNodeThatReconnectsWithTheSameIncarnationBackIntoItsGroups() throws GmsRefusal {
        join(2, 1);
        join(2, 2);
        join(4, 2);
        state.fail(2);
        assertEquals(List.of(), register(2, FIRST));
        List<Update> recoveries = state.recover(2);
        assertEquals(List.of(event(MemberEventKind.JOIN, 2, BASE + 4, 2, FIRST),
                        event(MemberEventKind.JOIN, 4, BASE + 5, 2, FIRST)),
                recoveries.stream().map(Update::event).toList());
        assertEquals(Map.of(1, FIRST, 2, FIRST), recoveries.get(0).view().incarnations());
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

    private List<Update> register(int node, long incarnation) {
        return state.register(node, new Registration(address(node), incarnation));
    }

    private static MemberEvent event(MemberEventKind kind, int group, long viewId, int node, long incarnation) {
        return new MemberEvent(kind, group, viewId, node, address(node), incarnation);
    }

    private static InetSocketAddress address(int node) {
        return new InetSocketAddress(InetAddresses.forString("10.0.0." + node), 5000 + node);
    }
}
