package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.FrameType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three QSM engines (nodes 1, 2, 3 in group 7: one flat ring) on a hand-driven network: the token's path, the
 * collective acknowledgement, recovery from a peer or (only when no peer has it) the sender, regeneration of a lost
 * token, the bounds of the token, and hostile tokens.
 */
class QsmEngineTest extends QsmNetworkTest {
    QsmEngineTest() {
        super(3);
    }

    @Test
    void shouldPassTheTokenAroundTheRingInNodeOrderAndParkItWhenIdle() {
        start();
        send(2, 1);
        run(30_000_000);
        assertTrue(tokens.size() >= 3, "the token went round: " + tokens.size());
        assertEquals(1, tokens.get(0).from(), "the leader (lowest id) makes the first token");
        for (Flight t : tokens) {
            int next = t.from() == 3 ? 1 : t.from() + 1;
            assertEquals(next, t.to(), "each member passes it to the next in id order");
        }
        assertTrue(engine(1).tokenParked(GROUP), "the idle ring's leader parked it");
        for (int node : nodes) {
            assertEquals(Long.MAX_VALUE, engine(node).nextDeadlineNs(), "node " + node + " has no timer left");
        }
        int passes = tokens.size();
        send(3, 1);
        run(30_000_000);
        assertTrue(tokens.size() > passes, "new data set the parked token moving again");
        assertEquals(0, count(1, QsmCounter.QSM_TOKENS_REGENERATED), "no token was lost");
    }

    @Test
    void shouldNotParkATokenThatLooksIdleWhenTheLeaderSawDataAfterItPassedTheSender() {
        start();
        send(2, 1);
        // The token leaves node 2 empty, one idle round short of parking: the leader would park it on arrival.
        runUntilToken(t -> t.source() == 2 && t.senderCount() == 0 && t.recordCount() == 0
                && t.idleRounds() == QsmConfig.builder().build().parkAfterIdleRounds() - 1, 100_000_000);
        send(2, 1); // too late for the token's entry at node 2, but the leader receives the packet
        run(100_000_000);
        for (int node : nodes) {
            assertEquals(0, count(node, QsmCounter.QSM_TOKENS_REGENERATED), "no token was lost: node " + node);
        }
        assertEquals(0, engine(2).sendBufferSize(GROUP), "the token came back for the sender's entry");
        assertTrue(engine(1).tokenParked(GROUP), "and parked once the ring was idle again");
    }

    @Test
    void shouldReleaseTheSendBufferOnlyOnceEveryMemberHasThePackets() {
        start();
        drop = f -> isData(f, 3, 1);
        send(1, 3);
        run(2_000_000); // less than a round: nothing acknowledged yet
        assertEquals(3, engine(1).sendBufferSize(GROUP));
        drop = f -> false;
        run(30_000_000);
        assertEquals(0, engine(1).sendBufferSize(GROUP), "the collective ACK released every packet");
        assertEquals(3, count(1, QsmCounter.QSM_BUFFER_RELEASED));
        assertEquals(3, outbox(3).delivered.size());
    }

    @Test
    void shouldRecoverALossFromARingPeerRatherThanTheSender() {
        start();
        drop = f -> isData(f, 3, 0);
        send(1, 2);
        drop = f -> false;
        run(30_000_000);
        List<RecordingOutbox.Delivered> recovered = outbox(3).deliveredBy(Delivery.NAK);
        assertEquals(List.of(new PacketId(1, GROUP, 0)), recovered.stream().map(RecordingOutbox.Delivered::id)
                .toList());
        assertEquals(1, count(2, QsmCounter.QSM_REPAIRS_SENT), "node 2 forwarded it");
        assertEquals(0, count(1, QsmCounter.QSM_REPAIRS_SENT), "the sender did not");
        assertEquals(1, count(3, QsmCounter.QSM_REPAIRS_RECEIVED));
        assertEquals(0, count(3, EngineCounter.DUPLICATES));
    }

    @Test
    void shouldRecoverFromTheSenderWhenNoPeerHasThePacket() {
        start();
        drop = f -> isData(f, 2, 0) || isData(f, 3, 0);
        send(1, 2);
        drop = f -> false;
        run(40_000_000);
        assertEquals(2, count(1, QsmCounter.QSM_REPAIRS_FROM_ORIGIN));
        assertEquals(1, outbox(2).deliveredBy(Delivery.NAK).size());
        assertEquals(1, outbox(3).deliveredBy(Delivery.NAK).size());
    }

    @Test
    void shouldFindALostTailFromTheSendersEntryInTheToken() {
        start();
        drop = f -> isData(f, 3, 4);
        send(1, 5);
        drop = f -> false;
        run(30_000_000);
        assertEquals(1, count(3, QsmCounter.QSM_LOSSES_FROM_TOKEN), "no later packet showed the gap");
        assertEquals(5, outbox(3).delivered.size());
    }

    @Test
    void shouldRegenerateALostTokenAndStillRecover() {
        start();
        drop = f -> f.frame()[3] == FrameType.QSM_TOKEN && tokens.size() <= 1 || isData(f, 2, 0);
        send(1, 2);
        run(60_000_000);
        assertTrue(count(1, QsmCounter.QSM_TOKENS_REGENERATED) + count(2, QsmCounter.QSM_TOKENS_REGENERATED)
                + count(3, QsmCounter.QSM_TOKENS_REGENERATED) >= 1, "a member with work made a new token");
        assertEquals(2, outbox(2).delivered.size(), "node 2 recovered packet 0 after all");
        assertEquals(0, engine(1).sendBufferSize(GROUP));
        assertFalse(engine(2).holdsToken(GROUP) && engine(3).holdsToken(GROUP), "one token survives");
    }

    @Test
    void shouldWaitForTheRegenerationFloorBeforeMakingANewToken() {
        // Three members, 1 ms holds: without a floor a lost token is made anew after about 3 rounds (9 ms + stagger).
        start(QsmConfig.builder().maxPayload(64).regenerationFloorNs(50_000_000L).build());
        drop = f -> f.frame()[3] == FrameType.QSM_TOKEN && tokens.size() <= 1 || isData(f, 2, 0);
        send(1, 2);
        run(40_000_000);
        assertEquals(0, total(QsmCounter.QSM_TOKENS_REGENERATED), "nobody regenerates before the 50 ms floor");
        run(100_000_000);
        assertTrue(total(QsmCounter.QSM_TOKENS_REGENERATED) >= 1, "after the floor a member with work does");
        assertEquals(2, outbox(2).delivered.size(), "node 2 recovered packet 0 after all");
    }

    @Test
    void shouldRegenerateWithinAFewRoundsWithoutAFloor() {
        start();
        drop = f -> f.frame()[3] == FrameType.QSM_TOKEN && tokens.size() <= 1 || isData(f, 2, 0);
        send(1, 2);
        run(40_000_000);
        assertTrue(total(QsmCounter.QSM_TOKENS_REGENERATED) >= 1, "3 rounds of 3 ms, well within 40 ms");
    }

    @Test
    void shouldReportALossLostWhenNoMemberHoldsThePacket() {
        start(QsmConfig.builder().maxPayload(64).sendBufferCapacity(1).recoveryRounds(2).build());
        drop = f -> isData(f, 2, 0) || isData(f, 3, 0);
        send(1, 2); // packet 0 leaves the sender's one-packet buffer when packet 1 is sent
        drop = f -> false;
        run(60_000_000);
        assertEquals(List.of(new PacketId(1, GROUP, 0)), outbox(2).lost);
        assertEquals(List.of(new PacketId(1, GROUP, 0)), outbox(3).lost);
        assertEquals(1, count(2, EngineCounter.UNRECOVERED));
        assertEquals(0, engine(2).pendingLosses());
    }

    @Test
    void shouldKeepTheTokenWithinItsRecordBound() {
        start(QsmConfig.builder().maxPayload(64).maxRecords(2).build());
        drop = f -> f.frame()[3] == FrameType.DATA && f.to() == 3
                && io.ricochet.wire.Bytes.getLong(f.frame(), io.ricochet.wire.DataFlyweight.SEQNO_OFFSET) < 6;
        send(1, 7);
        drop = f -> false;
        run(80_000_000);
        assertTrue(count(3, QsmCounter.QSM_RECORDS_FULL) > 0, "losses waited for room in the token");
        for (Flight t : tokens) {
            assertTrue(new QsmTokenFlyweight().wrap(t.frame(), 0).recordCount() <= 2);
        }
        assertEquals(7, outbox(3).delivered.size(), "all recovered, two at a time");
    }

    /** A token written by hand, as node {@code source} would send it. */
    private static byte[] token(int source, int group, long epoch, long[][] senders) {
        byte[] frame = new byte[QsmTokenFlyweight.lengthOf(senders.length, 0)];
        QsmTokenFlyweight f = new QsmTokenFlyweight().wrap(frame, 0);
        f.writeHead(source, group, epoch, source, 0, 0, senders.length, 0);
        for (int i = 0; i < senders.length; i++) {
            long[] s = senders[i];
            f.putSender(i, (int) s[0], 0, s[1], s[2], s[3]);
        }
        return frame;
    }

    @Test
    void shouldRefuseAndCountHostileTokens() {
        start();
        QsmEngine e = engine(2);
        byte[] stranger = token(9, GROUP, 5, new long[0][]);
        e.onPacket(stranger, 0, stranger.length, 1);
        byte[] overclaims = token(1, GROUP, 5, new long[][] {{1, 3, 10, 4}});
        e.onPacket(overclaims, 0, overclaims.length, 1);
        byte[] twice = token(1, GROUP, 5, new long[][] {{1, 3, 0, 0}, {1, 3, 0, 0}});
        e.onPacket(twice, 0, twice.length, 1);
        assertEquals(3, e.counters().get(QsmCounter.QSM_TOKENS_REFUSED));
        byte[] otherGroup = token(1, GROUP + 1, 5, new long[0][]);
        e.onPacket(otherGroup, 0, otherGroup.length, 1);
        assertEquals(1, e.counters().get(EngineCounter.NON_MEMBER));
        byte[] truncated = java.util.Arrays.copyOf(overclaims, overclaims.length - 1);
        e.onPacket(truncated, 0, truncated.length, 1);
        assertEquals(1, e.counters().get(EngineCounter.INVALID_PACKETS));
        assertFalse(e.holdsToken(GROUP), "none of them was taken");

        byte[] good = token(1, GROUP, 5, new long[0][]);
        e.onPacket(good, 0, good.length, 1);
        assertTrue(e.holdsToken(GROUP));
        byte[] older = token(3, GROUP, 4, new long[0][]);
        e.onPacket(older, 0, older.length, 1);
        assertEquals(1, e.counters().get(QsmCounter.QSM_TOKENS_STALE), "a lower epoch loses the tie-break");
        byte[] newer = token(3, GROUP, 6, new long[0][]);
        e.onPacket(newer, 0, newer.length, 1);
        assertEquals(1, e.counters().get(QsmCounter.QSM_TOKENS_SUPERSEDED), "a higher epoch replaces the held one");
    }
}
