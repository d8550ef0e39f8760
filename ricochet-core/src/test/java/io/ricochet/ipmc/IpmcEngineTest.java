package io.ricochet.ipmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One ipmc engine fed frames by hand: delivery once, in arrival order, and nothing else (no repairs, no LOST). */
class IpmcEngineTest {
    private static final int SELF = 1;
    private static final int PEER = 2;
    private static final int GROUP = 7;
    private static final int PAYLOAD = 256;

    private final RecordingOutbox outbox = new RecordingOutbox();
    private IpmcEngine engine;

    @BeforeEach
    void setUp() {
        engine = new IpmcEngine(SELF, PAYLOAD, outbox);
        engine.onMembership(MembershipEvent.join(GROUP, SELF), 0);
        engine.onMembership(MembershipEvent.join(GROUP, PEER), 0);
    }

    private static byte[] frame(int type, int source, int origin, int group, long seqno, String text) {
        byte[] payload = text.getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[DataFlyweight.dataFrameLength(payload.length)];
        new DataFlyweight().wrap(frame, 0).write(type, source, origin, group, seqno, payload, 0, payload.length);
        return frame;
    }

    private void receive(long seqno) {
        byte[] f = frame(FrameType.DATA, PEER, PEER, GROUP, seqno, "m" + seqno);
        engine.onPacket(f, 0, f.length, 1);
    }

    private List<Long> deliveredSeqnos() {
        return outbox.delivered.stream().map(RecordingOutbox.Delivered::seqno).toList();
    }

    @Test
    void shouldMulticastEachSendOnceAsAPlainDataFrame() {
        byte[] payload = "hello".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0, engine.send(GROUP, payload, 0, payload.length, 0));
        assertEquals(1, engine.send(GROUP, payload, 0, payload.length, 0));
        assertEquals(2, outbox.sent.size());
        assertTrue(outbox.sent.stream().allMatch(s -> s.multicast() && s.type() == FrameType.DATA));
        assertEquals(2, engine.counters().get(EngineCounter.DATA_SENT));
        assertEquals(2, engine.sentTo(GROUP));
        assertEquals(Long.MAX_VALUE, engine.nextDeadlineNs(), "a sender sets no timer");
    }

    @Test
    void shouldRefuseToSendToAGroupItIsNotIn() {
        assertThrows(IllegalStateException.class, () -> engine.send(GROUP + 1, new byte[1], 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> engine.send(GROUP, new byte[PAYLOAD + 1], 0,
                PAYLOAD + 1, 0));
    }

    @Test
    void shouldDeliverInArrivalOrderOnceEachWithoutLookingForLosses() {
        for (long seqno : new long[] {0, 3, 1, 3, 9, 0, 5}) {
            receive(seqno);
        }
        assertEquals(List.of(0L, 3L, 1L, 9L, 5L), deliveredSeqnos());
        assertTrue(outbox.delivered.stream().allMatch(d -> d.how() == Delivery.DIRECT));
        assertEquals("m9", new String(outbox.delivered.get(3).payload(), StandardCharsets.US_ASCII));
        assertEquals(5, engine.counters().get(EngineCounter.DATA_RECEIVED));
        assertEquals(5, engine.counters().get(EngineCounter.DELIVERED));
        assertEquals(2, engine.counters().get(EngineCounter.DUPLICATES));
        assertEquals(0, engine.counters().get(EngineCounter.LOSSES_DETECTED));
        assertTrue(outbox.lost.isEmpty() && outbox.discovered.isEmpty(), "ipmc reports no loss");
        assertTrue(outbox.sent.isEmpty(), "a receiver sends nothing: no NAK, no repair");
    }

    @Test
    void shouldSlideItsDuplicateFilterAndDropWhatFallsBehindIt() {
        receive(0);
        receive(IpmcEngine.STREAM_WINDOW + 10L);
        assertEquals(1, engine.counters().get(EngineCounter.WINDOW_SLIDES));
        receive(5); // behind the window now: it cannot be told from a copy
        assertEquals(List.of(0L, IpmcEngine.STREAM_WINDOW + 10L), deliveredSeqnos());
        assertEquals(1, engine.counters().get(EngineCounter.DUPLICATES));
        receive(1L << 40); // a jump far beyond: tracking restarts there
        assertEquals(1, engine.counters().get(EngineCounter.STREAM_RESTARTS));
        assertEquals(3, outbox.delivered.size());
    }

    @Test
    void shouldDropMalformedForgedForeignAndStrangersFramesCountingEach() {
        byte[] good = frame(FrameType.DATA, PEER, PEER, GROUP, 0, "x");
        engine.onPacket(good, 0, good.length - 1, 1);
        byte[] retransmit = frame(FrameType.RETRANSMIT, PEER, PEER, GROUP, 1, "x");
        engine.onPacket(retransmit, 0, retransmit.length, 1);
        assertEquals(2, engine.counters().get(EngineCounter.INVALID_PACKETS), "truncated; another protocol's");
        byte[] forged = frame(FrameType.DATA, 3, PEER, GROUP, 2, "x");
        engine.onPacket(forged, 0, forged.length, 1);
        assertEquals(3, engine.counters().get(EngineCounter.INVALID_PACKETS), "source is not the origin");
        byte[] otherGroup = frame(FrameType.DATA, PEER, PEER, GROUP + 1, 0, "x");
        engine.onPacket(otherGroup, 0, otherGroup.length, 1);
        assertEquals(1, engine.counters().get(EngineCounter.NON_MEMBER));
        byte[] stranger = frame(FrameType.DATA, 9, 9, GROUP, 0, "x");
        engine.onPacket(stranger, 0, stranger.length, 1);
        assertEquals(1, engine.counters().get(EngineCounter.UNLISTED_ORIGINS));
        byte[] own = frame(FrameType.DATA, SELF, SELF, GROUP, 0, "x");
        engine.onPacket(own, 0, own.length, 1);
        assertEquals(1, engine.counters().get(EngineCounter.DUPLICATES), "our own packet looped back");
        assertTrue(outbox.delivered.isEmpty());
    }

    @Test
    void shouldPruneADepartedSendersStreamAfterTheRetireDelay() {
        receive(0);
        engine.onMembership(MembershipEvent.leave(GROUP, PEER), 10);
        assertEquals(10 + IpmcEngine.RETIRE_AFTER_NS, engine.nextDeadlineNs());
        assertTrue(outbox.wakes.contains(10 + IpmcEngine.RETIRE_AFTER_NS));
        engine.onTimer(10 + IpmcEngine.RETIRE_AFTER_NS);
        assertEquals(1, engine.counters().get(EngineCounter.STREAMS_PRUNED));
        assertEquals(0L, engine.bufferUsage().get("streams"));
        assertEquals(Long.MAX_VALUE, engine.nextDeadlineNs());
    }
}
