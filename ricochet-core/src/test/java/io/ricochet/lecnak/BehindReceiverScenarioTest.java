package io.ricochet.lecnak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.sim.ScenarioNetwork;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A receiver that falls more than its stream window behind a sender (a paused process, a burst) never wedges: the
 * window slides, the skipped packets stay losses, the NAK layer recovers those the sender still holds, and the
 * rest are reported lost. Every packet sent ends delivered once or lost, never neither.
 */
class BehindReceiverScenarioTest {
    private static final int G = 3;
    private static final int WINDOW = 64;
    private static final int SENT = 400;
    private static final long FIRST_DROPPED = 10;
    private static final long LAST_DROPPED = 299;

    private static ScenarioNetwork network(int retransmitCapacity) {
        return network(retransmitCapacity, LAST_DROPPED, SENT);
    }

    private static ScenarioNetwork network(int retransmitCapacity, long lastDropped, int sent) {
        RicochetConfig config = RicochetConfig.builder().streamWindow(WINDOW).retransmitCapacity(retransmitCapacity)
                .maxPendingLosses(10_000).nakRateLimit(0).build();
        ScenarioNetwork net = new ScenarioNetwork(new RicochetProtocol(config), 2, 50_000, 3, false);
        net.group(G, 0, 1);
        DataFlyweight data = new DataFlyweight();
        // Node 1 misses a run of data far longer than its window; retransmissions still reach it.
        net.dropWhen(frame -> frame.to() == 1 && frame.type() == FrameType.DATA
                && data.wrap(frame.bytes(), 0).seqno() >= FIRST_DROPPED
                && data.wrap(frame.bytes(), 0).seqno() <= lastDropped);
        for (int i = 0; i < sent; i++) {
            net.send(0, G, 100);
        }
        net.drive(2_000_000);
        return net;
    }

    private static void assertEachDeliveredOnceOrLost(ScenarioNetwork net) {
        assertEachDeliveredOnceOrLost(net, SENT);
    }

    private static void assertEachDeliveredOnceOrLost(ScenarioNetwork net, int sent) {
        List<Long> delivered = net.deliveredSeqnos(1);
        Set<Long> once = new HashSet<>(delivered);
        assertEquals(delivered.size(), once.size(), "nothing delivered twice");
        List<Long> lost = new ArrayList<>();
        for (PacketId id : net.lost(1)) {
            lost.add(id.seqno());
            assertTrue(!once.contains(id.seqno()), id + " both delivered and lost");
        }
        assertEquals(lost.size(), new HashSet<>(lost).size(), "nothing reported lost twice");
        assertEquals(sent, once.size() + lost.size(), "every packet delivered or lost: " + once.size() + " + "
                + lost.size());
    }

    @Test
    void shouldSlideTheWindowAndRecoverEverySkippedPacketTheSenderStillHolds() {
        ScenarioNetwork net = network(8192);
        assertEachDeliveredOnceOrLost(net);
        assertEquals(SENT, net.deliveredSeqnos(1).size(), "the sender held everything");
        assertTrue(net.engine(1).counters().get(EngineCounter.WINDOW_SLIDES) > 0);
        assertEquals(LAST_DROPPED - FIRST_DROPPED + 1, net.engine(1).counters().get(EngineCounter.RECOVERED_BY_NAK));
    }

    @Test
    void shouldReportLostWhatTheSenderNoLongerHolds() {
        ScenarioNetwork net = network(50);
        assertEachDeliveredOnceOrLost(net);
        assertTrue(net.lost(1).size() >= LAST_DROPPED - FIRST_DROPPED + 1 - 50, "lost " + net.lost(1).size());
        assertEquals(SENT - net.lost(1).size(), net.deliveredSeqnos(1).size());
    }

    @Test
    void shouldRevealAGapLongerThanOneRevealPieceByPieceAndStillRecoverIt() {
        long lastDropped = 3_200;
        int sent = 3_300;
        ScenarioNetwork net = network(8192, lastDropped, sent);
        assertEachDeliveredOnceOrLost(net, sent);
        assertEquals(sent, net.deliveredSeqnos(1).size(), "the sender held everything");
        assertTrue(net.engine(1).counters().get(EngineCounter.REVEALS_DEFERRED) > 0,
                "the packet after the gap waited for the gap to be revealed");
    }
}
