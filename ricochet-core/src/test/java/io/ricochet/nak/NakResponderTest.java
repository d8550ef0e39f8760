package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NakResponderTest {
    private static final int SELF = 1;
    private static final int REQUESTER = 7;
    private static final int G = 3;
    private static final long RETENTION = 1_000;

    private final Counters counters = new Counters(Counters.set(EngineCounter.values(), NakCounter.values()));
    private final RecordingOutbox out = new RecordingOutbox();
    private final java.util.Map<Integer, Long> sentTo = new java.util.HashMap<>();

    private NakResponder responder(int capacity, boolean buffering) {
        return new NakResponder(SELF, capacity, RETENTION, 0, 1024, buffering, this::nextSeqno, counters, out);
    }

    private static PacketRefFlyweight nak(int requester, PacketId id) {
        return new PacketRefFlyweight().wrap(Frames.ref(FrameType.NAK, requester, id), 0);
    }

    private void send(NakResponder responder, long seqno) {
        send(responder, seqno, 0);
    }

    private void send(NakResponder responder, long seqno, long nowNs) {
        byte[] payload = Frames.payload(new PacketId(SELF, G, seqno));
        responder.sent(G, seqno, payload, 0, payload.length, nowNs);
        sentTo.merge(G, seqno + 1, Math::max);
    }

    /** What the engine's sender would say: the next seqno this node sends to {@code group}. */
    private long nextSeqno(int group) {
        return sentTo.getOrDefault(group, 0L);
    }

    @Test
    void shouldAnswerEachRequesterAtItsRateAtMost() {
        NakResponder responder = new NakResponder(SELF, 8, RETENTION, 100, 1024, true, this::nextSeqno, counters, out);
        send(responder, 0);
        for (int i = 0; i < 50; i++) {
            responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 0)), 0);
        }
        assertEquals(10, out.sent.size(), "a burst of a tenth of 100/s, then nothing more at once");
        assertEquals(40, counters.get(NakCounter.ANSWERS_THROTTLED));
        responder.onNak(nak(REQUESTER + 1, new PacketId(SELF, G, 0)), 0);
        assertEquals(11, out.sent.size(), "another requester has its own rate");
        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 0)), 10_000_000);
        assertEquals(12, out.sent.size(), "one more token 10 ms later");
    }

    @Test
    void shouldBeReadyToSendOnlyOnceTheOldestPacketWasKeptForTheRetention() {
        NakResponder responder = responder(2, true);
        assertEquals(5, responder.readyAtNs(5), "room in the buffer");
        send(responder, 0, 10);
        send(responder, 1, 20);
        assertEquals(10 + RETENTION, responder.readyAtNs(30), "full: when seqno 0 has been kept long enough");
        assertEquals(2_000, responder.readyAtNs(2_000));
        send(responder, 2, 2_000);
        assertEquals(20 + RETENTION, responder.readyAtNs(1_000), "then seqno 1");
        assertEquals(7, responder(2, false).readyAtNs(7), "a sender that keeps nothing is always ready");
    }

    @Test
    void shouldAnswerANakWithTheBufferedPacketByUnicastToTheRequester() {
        NakResponder responder = responder(8, true);
        send(responder, 0);
        send(responder, 1);

        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 1)), 0);

        assertEquals(1, out.sent.size());
        RecordingOutbox.Sent answer = out.sent.get(0);
        assertEquals(REQUESTER, answer.to());
        assertFalse(answer.multicast());
        assertEquals(FrameType.RETRANSMIT, answer.type());
        DataFlyweight data = new DataFlyweight().wrap(answer.frame(), 0);
        assertEquals(SELF, data.origin());
        assertEquals(1, data.seqno());
        byte[] expected = Frames.payload(new PacketId(SELF, G, 1));
        assertArrayEquals(expected, Arrays.copyOfRange(answer.frame(), data.payloadOffset(),
                data.payloadOffset() + data.payloadLength()));
        assertEquals(1, counters.get(NakCounter.NAKS_RECEIVED));
        assertEquals(1, counters.get(NakCounter.RETRANSMITS_SENT));
    }

    @Test
    void shouldAnswerGoneWhenThePacketLeftTheBuffer() {
        NakResponder responder = responder(2, true);
        for (long seqno = 0; seqno < 3; seqno++) {
            send(responder, seqno);
        }

        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 0)), 0);

        assertEquals(1, counters.get(EngineCounter.RETRANSMIT_BUFFER_EVICTIONS));
        assertEquals(FrameType.GONE, out.sent.get(0).type());
        PacketRefFlyweight gone = new PacketRefFlyweight().wrap(out.sent.get(0).frame(), 0);
        assertEquals(SELF, gone.origin());
        assertEquals(G, gone.group());
        assertEquals(0, gone.seqno());
        assertEquals(1, counters.get(NakCounter.GONE_SENT));
    }

    @Test
    void shouldRefuseANakForAnotherNodesPacket() {
        NakResponder responder = responder(8, true);
        send(responder, 0);

        responder.onNak(nak(REQUESTER, new PacketId(SELF + 1, G, 0)), 0);

        assertEquals(0, out.sent.size());
        assertEquals(1, counters.get(EngineCounter.INVALID_PACKETS));
    }

    @Test
    void shouldNeverAnswerWithMoreThanThreeTimesTheBytesOfTheNak() {
        NakResponder responder = new NakResponder(SELF, 8, RETENTION, 0, DataFlyweight.STANDARD_MAX_PAYLOAD, true,
                this::nextSeqno, counters, out);
        byte[] largest = new byte[DataFlyweight.STANDARD_MAX_PAYLOAD];
        responder.sent(G, 0, largest, 0, largest.length, 0);
        sentTo.put(G, 1L);
        byte[] nak = Frames.ref(FrameType.NAK, REQUESTER, new PacketId(SELF, G, 0));

        responder.onNak(new PacketRefFlyweight().wrap(nak, 0), 0);

        assertEquals(FrameType.RETRANSMIT, out.sent.get(0).type());
        assertEquals(HeaderFlyweight.STANDARD_FRAME_LENGTH, out.sent.get(0).frame().length, "the largest answer");
        assertTrue(out.sent.get(0).frame().length <= 3 * nak.length, "answer " + out.sent.get(0).frame().length
                + " bytes for a NAK of " + nak.length);
    }

    @Test
    void aFullBufferMakesRoomAtOnceForPacketsEveryMemberResolved() {
        java.util.Set<Integer> members = java.util.Set.of(SELF, REQUESTER, 9);
        NakResponder responder = responder(2, true);
        responder.useStability(new Stability(SELF, g -> g == G ? members : java.util.Set.of()));
        send(responder, 0, 0);
        send(responder, 1, 0);
        assertEquals(RETENTION, responder.readyAtNs(0), "full, nothing reported: the retention time");

        responder.onStable(REQUESTER, G, 2);
        assertEquals(RETENTION, responder.readyAtNs(0), "member 9 may still ask for seqno 0");
        responder.onStable(9, G, 2);
        assertEquals(0, responder.readyAtNs(0), "every other member resolved seqno 0: room now");

        send(responder, 2, 0);
        assertEquals(1, counters.get(NakCounter.STABLE_RELEASES), "seqno 0 left before its time");
        assertEquals(0, responder.readyAtNs(0), "seqno 1 is stable too");
        send(responder, 3, 0);
        assertEquals(RETENTION, responder.readyAtNs(0), "seqno 2 is not: kept its time");
    }

    @Test
    void theSendWindowHoldsAGroupToItsSlowestMembersReports() {
        java.util.Set<Integer> members = java.util.Set.of(SELF, REQUESTER, 9);
        NakResponder responder = responder(64, true);
        responder.useStability(new Stability(SELF, g -> members), 4);
        for (int seqno = 0; seqno < 3; seqno++) {
            send(responder, seqno, 10 * seqno);
        }
        assertEquals(50, responder.readyAtNs(G, 50), "3 of 4 in flight: room");
        send(responder, 3, 30);
        assertEquals(RETENTION, responder.readyAtNs(G, 50), "window full, nothing reported: seqno 0 kept its time");
        assertEquals(50, responder.readyAtNs(G + 1, 50), "another group has a window of its own");
        assertEquals(50, responder.readyAtNs(50), "the buffer itself has room");

        responder.onStable(REQUESTER, G, 3);
        assertEquals(RETENTION, responder.readyAtNs(G, 50), "member 9 has reported nothing");
        responder.onStable(9, G, 1);
        assertEquals(50, responder.readyAtNs(G, 50), "every member resolved seqno 0: one packet of room");
        send(responder, 4, 40);
        assertEquals(10 + RETENTION, responder.readyAtNs(G, 50), "then seqno 1 holds the window, member 9 lags");
        assertEquals(2_000, responder.readyAtNs(G, 2_000), "a silent member holds it no longer than the retention");
        responder.onStable(9, G, 5);
        assertEquals(50, responder.readyAtNs(G, 50), "members 7 and 9 resolved up to 3: room");
    }

    @Test
    void theSendWindowCountsFromWhatMembersReceivedNotWhatTheyResolved() {
        java.util.Set<Integer> members = java.util.Set.of(SELF, REQUESTER);
        NakResponder responder = responder(64, true);
        Stability stability = new Stability(SELF, g -> members);
        responder.useStability(stability, 4);
        for (int seqno = 0; seqno < 4; seqno++) {
            send(responder, seqno, 0);
        }
        assertEquals(RETENTION, responder.readyAtNs(G, 5), "window full");
        responder.onStable(REQUESTER, G, 0, 4);
        assertEquals(5, responder.readyAtNs(G, 5), "seqno 0 waits for its NAK there, but 0..3 arrived or are known "
                + "missing: the window has moved on");
        assertFalse(stability.isStable(G, 0), "seqno 0 is not resolved there: the retransmit buffer keeps it");
        responder.onStable(REQUESTER, G, 0, 5);
        assertEquals(1, counters.get(EngineCounter.INVALID_PACKETS), "progress beyond what was sent is refused");
    }

    @Test
    void theSendWindowIsOffAtZeroAndWithoutOtherMembers() {
        NakResponder off = responder(64, true);
        off.useStability(new Stability(SELF, g -> java.util.Set.of(SELF, REQUESTER)), 0);
        NakResponder alone = responder(64, true);
        alone.useStability(new Stability(SELF, g -> java.util.Set.of(SELF)), 2);
        for (int seqno = 0; seqno < 8; seqno++) {
            send(off, seqno, 0);
            send(alone, seqno, 0);
        }
        assertEquals(5, off.readyAtNs(G, 5), "no window");
        assertEquals(5, alone.readyAtNs(G, 5), "no other member to wait for");
    }

    @Test
    void aReportBeyondWhatWasSentReleasesNothing() {
        java.util.Set<Integer> members = java.util.Set.of(SELF, REQUESTER);
        NakResponder responder = responder(1, true);
        responder.useStability(new Stability(SELF, g -> members));
        send(responder, 0, 0);
        responder.onStable(REQUESTER, G, 2);
        responder.onStable(REQUESTER, G + 1, 1);
        assertEquals(2, counters.get(EngineCounter.INVALID_PACKETS), "seqno 1 and group G + 1 were never sent");
        assertEquals(RETENTION, responder.readyAtNs(0));
        responder.onStable(REQUESTER, G, 1);
        assertEquals(0, responder.readyAtNs(0), "seqno 0 resolved below 1: an honest report");
    }

    @Test
    void shouldAnswerAJumboPacketOnlyToANakPaddedToAThirdOfIt() {
        int payload = 8_000;
        NakResponder responder = new NakResponder(SELF, 8, RETENTION, 0, payload, true, this::nextSeqno, counters,
                out);
        byte[] jumbo = new byte[payload];
        responder.sent(G, 0, jumbo, 0, jumbo.length, 0);
        sentTo.put(G, 1L);
        PacketId id = new PacketId(SELF, G, 0);

        responder.onNak(nak(REQUESTER, id), 0);
        assertEquals(0, out.sent.size(), "a standard NAK does not buy an answer of " + payload + " bytes");
        assertEquals(1, counters.get(NakCounter.NAKS_TOO_SHORT));

        int padded = PacketRefFlyweight.nakLength(DataFlyweight.dataFrameLength(payload));
        byte[] nak = new byte[padded];
        new PacketRefFlyweight().wrap(nak, 0).write(FrameType.NAK, REQUESTER, SELF, G, 0, padded);
        responder.onNak(new PacketRefFlyweight().wrap(nak, 0), 0);
        assertEquals(FrameType.RETRANSMIT, out.sent.get(0).type());
        assertTrue(out.sent.get(0).frame().length <= 3 * padded, "answer " + out.sent.get(0).frame().length
                + " bytes for a NAK of " + padded);
    }

    @Test
    void shouldNotAnswerANakForAPacketNotSentYet() {
        NakResponder responder = responder(8, true);
        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 0)), 0);
        send(responder, 0);
        send(responder, 1);

        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 2)), 0);
        responder.onNak(nak(REQUESTER, new PacketId(SELF, G + 1, 0)), 0);

        assertEquals(0, out.sent.size(), "no GONE: the requester would give up on a packet still to come");
        assertEquals(3, counters.get(EngineCounter.INVALID_PACKETS));
        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 1)), 0);
        assertEquals(1, counters.get(NakCounter.RETRANSMITS_SENT), "a sent packet is still answered");
    }

    @Test
    void shouldKeepNothingWhenNotBuffering() {
        NakResponder responder = responder(8, false);
        send(responder, 0);

        responder.onNak(nak(REQUESTER, new PacketId(SELF, G, 0)), 0);

        assertEquals(0, responder.bufferedPackets());
        assertEquals(FrameType.GONE, out.sent.get(0).type());
    }
}
