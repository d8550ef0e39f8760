package io.ricochet.fountain.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.fountain.LtDecoder;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.wire.FountainFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import org.junit.jupiter.api.Test;

/** The sender's trigger (a NAK run longer than stagger x r) and its answer (enough symbols that decode the range). */
class FountainSenderTest {
    private static final int SELF = 1;
    private static final int G = 5;
    private static final long MS = 1_000_000L;

    private final Counters counters = new Counters(RicochetProtocol.FOUNTAIN_COUNTERS);
    private final RecordingOutbox out = new RecordingOutbox();
    private final PacketStore buffer = new PacketStore(1024, 100, counters, EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
    /** NAKs handed back to be answered one by one: "requester:seqno". */
    private final java.util.List<String> answered = new java.util.ArrayList<>();
    private final FountainSender.Answerer answerer = (requester, group, seqno, nakLength, nowNs) ->
            answered.add(requester + ":" + seqno);
    private final FountainSender sender = new FountainSender(SELF, 8, 64, 100, 2 * MS, 0, buffer, counters, out,
            answerer);
    private static final int NAK = 40;

    private void sent(int packets) {
        for (int s = 0; s < packets; s++) {
            byte[] payload = new byte[10 + s % 50];
            java.util.Arrays.fill(payload, (byte) s);
            buffer.put(new PacketId(SELF, G, s), payload, 0, payload.length);
        }
    }

    @Test
    void shouldTriggerOnlyOnARunLongerThanTheThreshold() {
        NakRuns runs = new NakRuns(3);
        assertFalse(runs.nak(2, G, 10));
        assertFalse(runs.nak(2, G, 11));
        assertFalse(runs.nak(2, G, 13), "a gap starts a new run");
        assertFalse(runs.nak(3, G, 14), "another requester has its own run");
        assertFalse(runs.nak(2, G, 14));
        assertFalse(runs.nak(2, G, 15));
        assertTrue(runs.nak(2, G, 16), "13..16: four NAKs in a row, more than 3");
        assertFalse(runs.nak(2, G, 17), "the run starts again after a trigger");
    }

    @Test
    void shouldAnswerARunWithSymbolsThatDecodeTheRange() {
        sent(100);
        for (long s = 0; s < 8; s++) {
            assertFalse(sender.onNak(2, G, s, NAK, 0), "the first stagger x r NAKs are answered one by one");
        }
        for (long s = 8; s < 40; s++) {
            assertTrue(sender.onNak(2, G, s, NAK, s * 1000), "absorbed from the ninth on");
        }
        assertTrue(sender.onNak(3, G, 20, NAK, 50_000), "another member's NAK inside the range is absorbed too");
        for (long s = 8; s < 40; s++) {
            assertTrue(sender.onNak(4, G, s, NAK, 30_000 + s), "a third member lost the same run");
        }
        assertFalse(sender.onNak(3, G, 60, NAK, 50_000), "outside it is not");
        sender.poll(MS);
        assertEquals(0, out.sent.size(), "still gathering");
        assertEquals(39_000 + 2 * MS, sender.nextDeadlineNs(), "2 ms after the last NAK that extended it");
        sender.poll(3 * MS);

        int count = 32;
        int expected = (int) Math.ceil(count * (1 + FountainSender.MARGIN)) + FountainSender.EXTRA;
        assertEquals(expected, out.sent.size());
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_RANGES_SENT));
        assertEquals(0, sender.openRanges());
        FountainFlyweight f = new FountainFlyweight();
        LtDecoder decoder = null;
        for (RecordingOutbox.Sent sent : out.sent) {
            assertTrue(sent.multicast());
            assertEquals(G, sent.to());
            assertTrue(FrameValidator.isValid(sent.frame(), 0, sent.frame().length));
            assertEquals(FrameType.FOUNTAIN, sent.type());
            f.wrap(sent.frame(), 0);
            assertEquals(8, f.first());
            assertEquals(count, f.count());
            if (decoder == null) {
                decoder = new LtDecoder(count, f.symbolSize(), FountainFlyweight.C, FountainFlyweight.DELTA, f.seed(),
                        2 * count);
            }
            decoder.receive(f.symbolId(), sent.frame(), f.symbolOffset(), f.symbolSize());
        }
        assertTrue(decoder.isComplete());
        for (int i = 0; i < count; i++) {
            int s = 8 + i;
            assertEquals(10 + s % 50, f.length(i));
            assertEquals((byte) s, decoder.message()[i * f.symbolSize()], "packet " + s);
        }
        assertFalse(sender.onNak(2, G, 20, NAK, 4 * MS), "once sent, NAKs get retransmissions again");
    }

    @Test
    void shouldCutARangeAtThePacketsNoLongerBuffered() {
        sent(20);
        for (long s = 0; s < 30; s++) {
            sender.onNak(2, G, s, NAK, 0);
            sender.onNak(3, G, s, NAK, 0);
        }
        sender.poll(3 * MS);
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_RANGES_CUT));
        assertEquals(12, new FountainFlyweight().wrap(out.sent.get(0).frame(), 0).count(), "8..19 only");
    }

    @Test
    void shouldPaceSymbols() {
        FountainSender paced = new FountainSender(SELF, 2, 64, 100, 0, 100, buffer, counters, out, answerer);
        sent(50);
        for (long s = 0; s < 40; s++) {
            paced.onNak(2, G, s, NAK, 0);
            paced.onNak(3, G, s, NAK, 0);
        }
        paced.poll(0);
        assertEquals(10, out.sent.size(), "the burst: a tenth of a second's worth");
        assertEquals(10 * MS, paced.nextDeadlineNs(), "the next token, 1/100 s on");
        paced.poll(paced.nextDeadlineNs());
        assertEquals(11, out.sent.size());
    }

    @Test
    void shouldAnswerOneReceiversRunNakByNakRatherThanCodeIt() {
        sent(100);
        for (long s = 0; s < 40; s++) {
            sender.onNak(2, G, s, NAK, 0);
        }
        sender.poll(3 * MS);
        assertEquals(0, out.sent.size(), "32 retransmissions cost fewer packets than 41 symbols");
        assertEquals(32, answered.size());
        assertEquals("2:8", answered.get(0));
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_RANGES_ANSWERED_AS_NAKS));
        assertEquals(0, sender.openRanges());
    }
}
