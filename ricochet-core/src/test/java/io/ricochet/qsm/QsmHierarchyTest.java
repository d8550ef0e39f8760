package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.FrameType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * QSM's hierarchy (section 3) on ten engines, nodes 1..10 in group 7 with partitions of at most 5: partitions
 * {1..5} and {6..10}, led by 1 and 6, whose ring is the leaders' ring. Recovery stays in a partition when a peer there
 * has the packet, crosses partitions when a whole partition lacks it, and reaches the sender only when the whole
 * unit lacks it; the sender's buffer is freed by the unit's collective ACK, not its partition's.
 */
class QsmHierarchyTest extends QsmNetworkTest {
    private static final int[] FIRST = {1, 2, 3, 4, 5};
    private static final int[] SECOND = {6, 7, 8, 9, 10};

    QsmHierarchyTest() {
        super(10);
    }

    private static boolean inFirst(int node) {
        return node <= 5;
    }

    private static boolean isRepairTo(Flight f, int to) {
        return f.frame()[3] == FrameType.QSM_REPAIR && f.to() == to;
    }

    /** Asserts every node but the sender delivered packets 0..count-1 of {@code sender}, and nothing twice. */
    private void assertAllDelivered(int sender, int count) {
        for (int node : nodes) {
            if (node != sender) {
                assertEquals(count, outbox(node).delivered.size(), "node " + node + ": " + outbox(node).delivered);
                assertEquals(0, outbox(node).lost.size(), "node " + node);
            }
        }
    }

    /** The packets {@code node} recovered by a forward. */
    private List<PacketId> recovered(int node) {
        return outbox(node).deliveredBy(Delivery.NAK).stream().map(RecordingOutbox.Delivered::id).toList();
    }

    @Test
    void shouldRunARingPerPartitionAndOneOfTheirLeadersThenParkThemAll() {
        start();
        send(3, 2);
        run(60_000_000);
        assertEquals(2, engine(4).partitions(GROUP));
        int leaders = 0;
        for (Flight t : tokens) {
            int level = new QsmTokenFlyweight().wrap(t.frame(), 0).level();
            if (level == 1) {
                leaders++;
                assertTrue(t.from() == 1 && t.to() == 6 || t.from() == 6 && t.to() == 1, "leaders only: " + t);
            } else {
                assertEquals(inFirst(t.from()), inFirst(t.to()), "a partition's token stays in it: " + t);
            }
        }
        assertTrue(leaders >= 2, "the leaders' token went round: " + leaders);
        assertTrue(engine(1).tokenParked(GROUP) && engine(6).tokenParked(GROUP), "each partition's leader parked");
        assertTrue(engine(1).leadersTokenParked(GROUP), "the first leader parked the leaders' token");
        for (int node : nodes) {
            assertEquals(Long.MAX_VALUE, engine(node).nextDeadlineNs(), "node " + node + " has no timer left");
        }
        assertEquals(0, engine(3).sendBufferSize(GROUP), "the unit's collective ACK released both packets");
        assertEquals(0, total(QsmCounter.QSM_TOKENS_REGENERATED), "no token was lost");
        assertAllDelivered(3, 2);
    }

    @Test
    void shouldKeepTheSendersPacketsUntilEveryPartitionHoldsThem() {
        start();
        drop = f -> isData(f, 8, 0) || isRepairTo(f, 8);
        send(3, 2);
        run(30_000_000);
        assertEquals(2, engine(3).sendBufferSize(GROUP),
                "the sender's partition holds both, but node 8 in the other lacks packet 0");
        assertTrue(count(3, QsmCounter.QSM_BUFFER_RELEASED) == 0);
        drop = f -> false;
        run(60_000_000);
        assertEquals(0, engine(3).sendBufferSize(GROUP));
        assertEquals(List.of(new PacketId(3, GROUP, 0)), recovered(8));
        assertAllDelivered(3, 2);
    }

    @Test
    void shouldRecoverWithinThePartitionWhenAPeerThereHasThePacket() {
        start();
        drop = f -> isData(f, 7, 0) || isData(f, 2, 0);
        send(3, 2);
        drop = f -> false;
        run(60_000_000);
        assertAllDelivered(3, 2);
        assertEquals(0, total(QsmCounter.QSM_RECORDS_ESCALATED), "each partition recovered its own loss");
        assertEquals(0, total(QsmCounter.QSM_REPAIRS_ACROSS));
        assertEquals(0, count(3, QsmCounter.QSM_REPAIRS_SENT), "the sender forwarded nothing");
    }

    @Test
    void shouldPushAPacketAcrossPartitionsWhenAWholePartitionLacksIt() {
        start();
        drop = f -> isData(f, f.to(), 0) && !inFirst(f.to());
        send(3, 2);
        drop = f -> false;
        run(80_000_000);
        assertAllDelivered(3, 2);
        for (int node : SECOND) {
            assertEquals(List.of(new PacketId(3, GROUP, 0)), recovered(node), "node " + node);
        }
        assertTrue(count(6, QsmCounter.QSM_RECORDS_ESCALATED) > 0, "the second partition's leader passed it up");
        // The first leader pushes it to the members it reaches first; their partition peers forward it to the rest.
        assertTrue(count(1, QsmCounter.QSM_REPAIRS_ACROSS) > 0, "the first partition's leader pushed it across");
        assertEquals(0, count(3, QsmCounter.QSM_REPAIRS_SENT), "not the sender: a peer partition had it");
        assertEquals(0, total(QsmCounter.QSM_ORIGIN_ASKED));
    }

    @Test
    void shouldAskTheSenderOnlyWhenTheWholeUnitLacksThePacket() {
        start();
        drop = f -> isData(f, f.to(), 0);
        send(8, 2); // a sender that does not lead its partition
        drop = f -> false;
        run(120_000_000);
        assertAllDelivered(8, 2);
        assertTrue(count(8, QsmCounter.QSM_REPAIRS_FROM_ORIGIN) > 0, "the sender answered (then peers spread it)");
        assertTrue(count(6, QsmCounter.QSM_ORIGIN_ASKED) > 0, "its partition's leader asked it for the others");
        for (int node : FIRST) {
            assertEquals(List.of(new PacketId(8, GROUP, 0)), recovered(node), "node " + node);
        }
    }

    @Test
    void shouldAnswerAsTheSenderWhenItLeadsItsPartitionAndNobodyElseHasThePacket() {
        start();
        drop = f -> isData(f, f.to(), 0);
        send(6, 2);
        drop = f -> false;
        run(120_000_000);
        assertAllDelivered(6, 2);
        assertTrue(count(6, QsmCounter.QSM_REPAIRS_FROM_ORIGIN) > 0);
        assertEquals(0, engine(6).sendBufferSize(GROUP));
    }

    @Test
    void shouldRecoverEverythingWhenTokensOfBothLevelsAreLost() {
        start();
        int[] seen = new int[2];
        drop = f -> {
            if (f.frame()[3] == FrameType.QSM_TOKEN) {
                int level = new QsmTokenFlyweight().wrap(f.frame(), 0).level();
                return ++seen[level] % 7 == 3; // every seventh token of each level, from the third
            }
            return isData(f, f.to(), 0) && !inFirst(f.to()) || isData(f, 2, 1) || isData(f, 9, 3);
        };
        send(4, 6);
        run(300_000_000);
        drop = f -> false;
        run(200_000_000);
        assertAllDelivered(4, 6);
        assertTrue(total(QsmCounter.QSM_TOKENS_REGENERATED) > 0, "lost tokens were made anew");
        assertEquals(0, engine(4).sendBufferSize(GROUP));
        for (int node : nodes) {
            assertEquals(0, engine(node).pendingLosses(), "node " + node);
        }
    }

    @Test
    void shouldRefuseALeadersTokenAtOrFromAMemberThatLeadsNoPartition() {
        start();
        byte[] fromFollower = leadersToken(7);
        engine(1).onPacket(fromFollower, 0, fromFollower.length, 1);
        byte[] toFollower = leadersToken(6);
        engine(2).onPacket(toFollower, 0, toFollower.length, 1);
        byte[] acrossPartitions = new byte[QsmTokenFlyweight.lengthOf(0, 0)];
        new QsmTokenFlyweight().wrap(acrossPartitions, 0).writeHead(7, GROUP, 0, 5, 7, 0, 0, 0, 0);
        engine(2).onPacket(acrossPartitions, 0, acrossPartitions.length, 1);
        assertEquals(1, count(1, QsmCounter.QSM_TOKENS_REFUSED));
        assertEquals(2, count(2, QsmCounter.QSM_TOKENS_REFUSED));
        assertFalse(engine(2).holdsToken(GROUP));
        byte[] good = leadersToken(6);
        engine(1).onPacket(good, 0, good.length, 1);
        assertEquals(1, count(1, QsmCounter.QSM_TOKENS_RECEIVED), "a leader's token from the other leader is taken");
    }

    private static byte[] leadersToken(int source) {
        byte[] frame = new byte[QsmTokenFlyweight.lengthOf(0, 0)];
        new QsmTokenFlyweight().wrap(frame, 0).writeHead(source, GROUP, 1, 5, source, 0, 0, 0, 0);
        return frame;
    }
}
