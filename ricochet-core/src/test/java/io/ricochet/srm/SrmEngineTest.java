package io.ricochet.srm;

import static io.ricochet.srm.SrmFrames.data;
import static io.ricochet.srm.SrmFrames.id;
import static io.ricochet.srm.SrmFrames.repair;
import static io.ricochet.srm.SrmFrames.request;
import static io.ricochet.srm.SrmFrames.session;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Scripted scenarios for one SRM engine: node 1 in group 7 with nodes 2, 3 and 4, d = 1 ms, SRM's timer constants.
 * Time is virtual and set by the test; timers are fired by {@link #runTimersUntil}. Assertions are on frames sent,
 * deliveries and counters.
 */
class SrmEngineTest {
    private static final int SELF = 1;
    private static final int G = 7;
    private static final long MS = 1_000_000L;

    private final RecordingOutbox out = new RecordingOutbox();
    private SrmEngine engine;

    private SrmEngine start(SrmConfig config, long seed) {
        engine = new SrmEngine(SELF, config, new SplittableRandom(seed), out);
        engine.onMembership(MembershipEvent.join(G, SELF), 0);
        for (int node = 2; node <= 4; node++) {
            engine.onMembership(MembershipEvent.join(G, node), 0);
        }
        return engine;
    }

    private SrmEngine start() {
        return start(SrmConfig.builder().sessionIntervalNs(0).build(), 1);
    }

    private void receive(byte[] frame, long nowNs) {
        out.nowNs = nowNs;
        engine.onPacket(frame, 0, frame.length, nowNs);
    }

    /** Fires every timer due up to and including {@code endNs}, each at its own deadline. */
    private void runTimersUntil(long endNs) {
        for (long next = engine.nextDeadlineNs(); next <= endNs; next = engine.nextDeadlineNs()) {
            out.nowNs = next;
            engine.onTimer(next);
        }
    }

    private long count(Counter counter) {
        return engine.counters().get(counter);
    }

    private RecordingOutbox.Delivered deliveredOf(PacketId id) {
        List<RecordingOutbox.Delivered> matches = out.delivered.stream().filter(d -> d.id().equals(id)).toList();
        assertEquals(1, matches.size(), "deliveries of " + id);
        assertArrayEquals(SrmFrames.payload(id), matches.get(0).payload(), "payload of " + id);
        return matches.get(0);
    }

    private List<RecordingOutbox.Sent> requestsFor(PacketId id) {
        return out.sentOfType(SrmFrameType.REQUEST).stream().filter(s -> {
            SrmRequestFlyweight f = new SrmRequestFlyweight().wrap(s.frame(), 0);
            return f.origin() == id.origin() && f.group() == id.group() && f.seqno() == id.seqno();
        }).toList();
    }

    @Test
    void shouldDeliverDataDirectlyAndOnlyOnce() {
        start();
        receive(data(2, G, 0), 0);
        receive(data(2, G, 0), 1);
        assertEquals(Delivery.DIRECT, deliveredOf(id(2, G, 0)).how());
        assertEquals(1, count(EngineCounter.DATA_RECEIVED));
        assertEquals(1, count(EngineCounter.DUPLICATES));
        assertEquals(1, count(EngineCounter.DELIVERED));
        assertEquals(Long.MAX_VALUE, engine.nextDeadlineNs(), "nothing to do without a loss or sessions");
    }

    @Test
    void shouldDiscoverALossFromTheNextPacketOfTheSameStream() {
        start();
        receive(data(2, G, 0), 0);
        receive(data(3, G, 0), 5 * MS);
        assertTrue(out.discovered.isEmpty(), "another sender's packet reveals nothing about (2, G)");
        receive(data(2, G, 2), 10 * MS);
        assertEquals(List.of(new RecordingOutbox.Discovered(id(2, G, 1), 10 * MS)), out.discovered);
        assertEquals(1, count(EngineCounter.LOSSES_DETECTED));
        assertEquals(1, engine.pendingRequests());
    }

    @Test
    void shouldMulticastItsRequestBetweenC1AndC1PlusC2DistancesAfterDiscovery() {
        for (long seed = 0; seed < 50; seed++) {
            out.sent.clear();
            start(SrmConfig.builder().sessionIntervalNs(0).build(), seed);
            receive(data(2, G, 1), 10 * MS);
            runTimersUntil(14 * MS);
            List<RecordingOutbox.Sent> requests = requestsFor(id(2, G, 0));
            assertEquals(1, requests.size(), "seed " + seed);
            long at = requests.get(0).atNs();
            assertTrue(at >= 12 * MS && at <= 14 * MS, "request at " + at + " ns, seed " + seed);
            assertTrue(requests.get(0).multicast());
            assertEquals(G, requests.get(0).to(), "multicast to the packet's group");
            assertEquals(SELF, new SrmRequestFlyweight().wrap(requests.get(0).frame(), 0).source());
        }
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_SENT));
    }

    @Test
    void shouldRecoverTheLossFromARepairAsRecoveredByAsking() {
        start();
        receive(data(2, G, 0), 0);
        receive(data(2, G, 2), 10 * MS);
        runTimersUntil(14 * MS);
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_SENT));
        receive(repair(3, 2, G, 1), 15 * MS);
        assertEquals(Delivery.NAK, deliveredOf(id(2, G, 1)).how());
        assertEquals(1, count(EngineCounter.RECOVERED_BY_NAK));
        assertEquals(1, count(SrmCounter.SRM_REPAIRS_RECEIVED));
        assertEquals(0, engine.pendingRequests());
        runTimersUntil(10_000 * MS);
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_SENT), "no request after the repair");
        receive(repair(4, 2, G, 1), 10_001 * MS);
        assertEquals(1, count(EngineCounter.DUPLICATES), "a second repair is a duplicate");
    }

    @Test
    void shouldBackOffInsteadOfRequestingWhenAnotherMemberRequestsFirst() {
        start();
        receive(data(2, G, 0), 0);
        receive(data(2, G, 2), 10 * MS);
        receive(request(3, 2, G, 1), 11 * MS); // before the earliest own request, at 12 ms
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_SUPPRESSED));
        receive(request(4, 2, G, 1), 12 * MS); // inside the ignore window: the same round
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_SUPPRESSED));
        runTimersUntil(15 * MS); // backed off: 2 x [2, 4] ms after 11 ms, so 15 ms at the earliest
        assertTrue(requestsFor(id(2, G, 1)).isEmpty(), "the request was suppressed");
        receive(repair(2, 2, G, 1), 15 * MS);
        assertEquals(Delivery.NAK, deliveredOf(id(2, G, 1)).how());
        runTimersUntil(10_000 * MS);
        assertEquals(0, count(SrmCounter.SRM_REQUESTS_SENT));
    }

    @Test
    void shouldDiscoverALossNamedInAnotherMembersRequestAndBackOff() {
        start();
        receive(data(2, G, 0), 0);
        receive(request(3, 2, G, 2), 5 * MS);
        assertEquals(2, count(EngineCounter.LOSSES_DETECTED), "seqnos 1 and 2 of (2, G)");
        assertEquals(2, count(SrmCounter.SRM_LOSSES_FROM_REQUESTS));
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_SUPPRESSED), "seqno 2 was requested already");
    }

    @Test
    void shouldAnswerARequestWithARepairBetweenD1AndD1PlusD2Distances() {
        for (long seed = 0; seed < 50; seed++) {
            out.sent.clear();
            start(SrmConfig.builder().sessionIntervalNs(0).build(), seed);
            receive(data(2, G, 0), 0);
            receive(request(3, 2, G, 0), 20 * MS);
            assertTrue(engine.repairScheduled(2, G, 0));
            runTimersUntil(22 * MS);
            List<RecordingOutbox.Sent> repairs = out.sentOfType(SrmFrameType.REPAIR);
            assertEquals(1, repairs.size(), "seed " + seed);
            long at = repairs.get(0).atNs();
            assertTrue(at >= 21 * MS && at <= 22 * MS, "repair at " + at + " ns, seed " + seed);
            SrmRepairFlyweight f = new SrmRepairFlyweight().wrap(repairs.get(0).frame(), 0);
            assertEquals(SELF, f.source());
            assertEquals(2, f.origin());
            assertArrayEquals(SrmFrames.payload(id(2, G, 0)), java.util.Arrays.copyOfRange(f.buffer(),
                    f.payloadOffset(), f.payloadOffset() + f.payloadLength()));
        }
    }

    @Test
    void shouldIgnoreDuplicateRequestsWhileHoldingDownAfterItsRepair() {
        start();
        receive(data(2, G, 0), 0);
        receive(request(3, 2, G, 0), 20 * MS);
        receive(request(4, 2, G, 0), 20 * MS + 100_000); // same round, repair already scheduled
        runTimersUntil(22 * MS);
        assertEquals(1, count(SrmCounter.SRM_REPAIRS_SENT));
        receive(request(4, 2, G, 0), 23 * MS); // within 3 d of the repair
        assertEquals(1, count(SrmCounter.SRM_REQUESTS_HELD_DOWN));
        runTimersUntil(30 * MS);
        assertEquals(1, count(SrmCounter.SRM_REPAIRS_SENT));
        receive(request(4, 2, G, 0), 40 * MS); // a new round after the hold-down is answered
        runTimersUntil(50 * MS);
        assertEquals(2, count(SrmCounter.SRM_REPAIRS_SENT));
        assertEquals(0, engine.pendingRepairs(), "hold-downs expire");
    }

    @Test
    void shouldCancelItsRepairOnHearingAnotherMembersRepair() {
        start();
        receive(data(2, G, 0), 0);
        receive(request(3, 2, G, 0), 20 * MS);
        receive(repair(4, 2, G, 0), 20 * MS + 500_000); // before D1 d = 1 ms
        assertEquals(1, count(SrmCounter.SRM_REPAIRS_SUPPRESSED));
        assertFalse(engine.repairScheduled(2, G, 0));
        runTimersUntil(100 * MS);
        assertEquals(0, count(SrmCounter.SRM_REPAIRS_SENT));
        assertEquals(1, count(EngineCounter.DUPLICATES), "the repair brought a packet we had");
    }

    @Test
    void shouldAnswerRequestsForItsOwnPacketsFromTheSendBuffer() {
        start();
        byte[] payload = SrmFrames.payload(id(SELF, G, 0));
        assertEquals(0, engine.send(G, payload, 0, payload.length, 0));
        assertEquals(1, out.sentOfType(io.ricochet.wire.FrameType.DATA).size());
        receive(request(3, SELF, G, 0), 5 * MS);
        runTimersUntil(10 * MS);
        List<RecordingOutbox.Sent> repairs = out.sentOfType(SrmFrameType.REPAIR);
        assertEquals(1, repairs.size());
        SrmRepairFlyweight f = new SrmRepairFlyweight().wrap(repairs.get(0).frame(), 0);
        assertEquals(SELF, f.origin());
        assertEquals(payload.length, f.payloadLength());
        receive(request(3, SELF, G, 1), 20 * MS); // never sent
        assertEquals(1, count(SrmCounter.SRM_REPAIRS_UNAVAILABLE));
    }

    @Test
    void shouldDiscoverATailLossFromTheSendersSessionMessage() {
        start();
        receive(data(2, G, 0), 0);
        receive(session(2, G, 1), 900 * MS);
        assertEquals(List.of(new RecordingOutbox.Discovered(id(2, G, 1), 900 * MS)), out.discovered);
        assertEquals(1, count(SrmCounter.SRM_LOSSES_FROM_SESSIONS));
        assertEquals(1, count(SrmCounter.SRM_SESSIONS_RECEIVED));
        runTimersUntil(904 * MS);
        assertEquals(1, requestsFor(id(2, G, 1)).size());
    }

    @Test
    void shouldDiscoverLossesFromWhatAnotherReceiverReportsHearing() {
        start();
        receive(data(2, G, 0), 0);
        receive(session(3, G, SrmSessionFlyweight.NONE, 2, 3, 9, 50, SELF, 70), 900 * MS);
        assertEquals(3, count(EngineCounter.LOSSES_DETECTED), "(2, G) 1..3; node 9 is no member, self is us");
        assertEquals(3, count(SrmCounter.SRM_LOSSES_FROM_SESSIONS));
    }

    @Test
    void shouldSendSessionMessagesWhileActiveAndThenGoQuiet() {
        start(SrmConfig.builder().sessionIntervalNs(1_000 * MS).sessionIdleRounds(3).build(), 3);
        receive(data(2, G, 4), 0);
        byte[] payload = new byte[10];
        engine.send(G, payload, 0, payload.length, 0);
        engine.send(G, payload, 0, payload.length, 0);
        runTimersUntil(100_000 * MS);
        List<RecordingOutbox.Sent> sessions = out.sentOfType(SrmFrameType.SESSION);
        assertTrue(sessions.size() >= 2 && sessions.size() <= 7, "sessions sent: " + sessions.size());
        long lastNs = sessions.get(sessions.size() - 1).atNs();
        assertTrue(lastNs <= 4_500 * MS, "quiet about 3 intervals after the last activity, last at " + lastNs);
        assertEquals(Long.MAX_VALUE, engine.nextDeadlineNs(), "no timer left once quiet");
        SrmSessionFlyweight f = new SrmSessionFlyweight().wrap(sessions.get(0).frame(), 0);
        assertEquals(G, f.group());
        assertEquals(1, f.highestSent());
        assertEquals(1, f.count(), "only node 2 was heard");
        assertEquals(2, f.entrySender(0));
        assertEquals(4, f.entrySeqno(0));
        assertEquals(sessions.size(), count(SrmCounter.SRM_SESSIONS_SENT));
    }

    @Test
    void shouldGiveUpAfterTheLastRequestRoundAndReportTheLossOnce() {
        start(SrmConfig.builder().sessionIntervalNs(0).maxRequestRounds(4).build(), 1);
        receive(data(2, G, 0), 0);
        receive(data(2, G, 2), 10 * MS);
        runTimersUntil(100_000 * MS);
        assertEquals(4, requestsFor(id(2, G, 1)).size());
        assertEquals(List.of(id(2, G, 1)), out.lost);
        assertEquals(1, count(EngineCounter.UNRECOVERED));
        assertEquals(0, engine.pendingRequests());
        long[] at = requestsFor(id(2, G, 1)).stream().mapToLong(RecordingOutbox.Sent::atNs).toArray();
        for (int round = 1; round < at.length; round++) {
            long gap = at[round] - at[round - 1];
            assertTrue(gap >= 2 * MS << round && gap <= 4 * MS << round, "round " + round + " after " + gap + " ns");
        }
        receive(repair(3, 2, G, 1), 100_001 * MS);
        assertEquals(1, count(EngineCounter.DUPLICATES), "never delivered after being reported lost");
    }

    @Test
    void shouldRecoverARepairThatArrivesBeforeTheLossIsKnown() {
        start();
        receive(data(2, G, 0), 0);
        receive(repair(3, 2, G, 1), 5 * MS);
        assertEquals(Delivery.NAK, deliveredOf(id(2, G, 1)).how());
        assertEquals(1, count(EngineCounter.LOSSES_DETECTED));
        assertEquals(1, count(EngineCounter.RECOVERED_BY_NAK));
        assertEquals(List.of(new RecordingOutbox.Discovered(id(2, G, 1), 5 * MS)), out.discovered);
    }

    @Test
    void shouldDeliverDataThatArrivesAfterItsLossWasDiscoveredAsLate() {
        start();
        receive(data(2, G, 1), 0);
        receive(data(2, G, 0), 1 * MS);
        assertEquals(Delivery.LATE, deliveredOf(id(2, G, 0)).how());
        assertEquals(1, count(EngineCounter.LATE_ARRIVALS));
        assertEquals(0, engine.pendingRequests());
    }

    @Test
    void shouldGiveUpNewLossesAtOnceWhenTheRequestTableIsFull() {
        start(SrmConfig.builder().sessionIntervalNs(0).maxPendingRequests(2).build(), 1);
        receive(data(2, G, 3), 0);
        assertEquals(3, count(EngineCounter.LOSSES_DETECTED));
        assertEquals(1, count(EngineCounter.LOSS_TABLE_FULL));
        assertEquals(List.of(id(2, G, 2)), out.lost);
        assertEquals(2, engine.pendingRequests());
    }

    @Test
    void shouldLeaveRequestsUnansweredWhenTheRepairTableIsFull() {
        start(SrmConfig.builder().sessionIntervalNs(0).maxPendingRepairs(1).build(), 1);
        receive(data(2, G, 0), 0);
        receive(data(2, G, 1), 0);
        receive(request(3, 2, G, 0), 1 * MS);
        receive(request(3, 2, G, 1), 1 * MS);
        assertEquals(1, count(SrmCounter.SRM_REPAIR_TABLE_FULL));
        runTimersUntil(10 * MS);
        assertEquals(1, count(SrmCounter.SRM_REPAIRS_SENT));
    }

    @Test
    void shouldCountAndDropMalformedForeignAndNonMemberFrames() {
        start();
        byte[] good = data(2, G, 0);
        receive(java.util.Arrays.copyOf(good, 20), 0);
        byte[] ricochetNak = request(3, 2, G, 0);
        ricochetNak[3] = (byte) io.ricochet.wire.FrameType.NAK;
        receive(ricochetNak, 0);
        byte[] relayed = data(2, G, 0);
        io.ricochet.wire.Bytes.putInt(relayed, 8, 3); // DATA must come from its origin
        receive(relayed, 0);
        assertEquals(3, count(EngineCounter.INVALID_PACKETS));
        receive(data(2, 99, 0), 0);
        receive(request(3, 2, 99, 0), 0);
        receive(session(3, 99, 5), 0);
        assertEquals(3, count(EngineCounter.NON_MEMBER));
        receive(data(SELF, G, 0), 0);
        assertEquals(1, count(EngineCounter.DUPLICATES), "own frame looped back");
        assertTrue(out.delivered.isEmpty());
    }

    @Test
    void shouldRefuseSendsToForeignGroupsAndOversizePayloads() {
        start(SrmConfig.builder().maxPayload(100).build(), 1);
        assertThrows(IllegalStateException.class, () -> engine.send(99, new byte[1], 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> engine.send(G, new byte[101], 0, 101, 0));
        receive(repair(3, 2, G, 7), 0); // payload over 100 bytes
        assertEquals(1, count(EngineCounter.INVALID_PACKETS));
    }

    @Test
    void shouldStopAfterLeavingAndRestartStreamsOfANewIncarnation() {
        start();
        receive(data(2, G, 5), 0);
        assertEquals(5, count(EngineCounter.LOSSES_DETECTED), "stream started at 0 when node 2 was seen joining");
        engine.onMembership(new MembershipEvent(MembershipEvent.Kind.JOIN, G, 2, 1), 1 * MS);
        assertEquals(List.of(id(2, G, 0), id(2, G, 1), id(2, G, 2), id(2, G, 3), id(2, G, 4)), out.lost,
                "the old incarnation's losses are reported lost");
        assertEquals(0, engine.pendingRequests());
        receive(data(2, G, 0), 2 * MS);
        assertEquals(Delivery.DIRECT, out.delivered.get(out.delivered.size() - 1).how(), "new incarnation from 0");
        receive(request(3, 2, G, 5), 2 * MS);
        assertEquals(0, engine.pendingRepairs(), "the new seqno 5 is missing here, not the cached old one");
        assertEquals(5, engine.pendingRequests(), "the request revealed seqnos 1..5 of the new incarnation");
        engine.onMembership(MembershipEvent.leave(G, SELF), 3 * MS);
        receive(data(2, G, 1), 4 * MS);
        assertEquals(1, count(EngineCounter.NON_MEMBER));
        runTimersUntil(100_000 * MS);
        assertEquals(0, engine.pendingRequests(), "losses of a group left are given up");
        assertEquals(0, count(SrmCounter.SRM_REQUESTS_SENT));
        assertEquals(10, out.lost.size());
    }
}
