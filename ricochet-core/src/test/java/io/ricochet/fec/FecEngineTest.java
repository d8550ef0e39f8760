package io.ricochet.fec;

import static io.ricochet.fec.FecHarness.MS;
import static io.ricochet.fec.FecHarness.id;
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
import io.ricochet.lec.LecCounter;
import io.ricochet.nak.NakCounter;
import io.ricochet.wire.FrameType;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scripted scenarios: one sender, one receiver, and the test deciding which frames are lost. */
class FecEngineTest {
    private static FecConfig.Builder config(int c, boolean nak) {
        return FecConfig.builder().r(8).c(c).nakEnabled(nak);
    }

    private static long count(FecEngine engine, Counter counter) {
        return engine.counters().get(counter);
    }

    @Test
    void shouldRecoverOneLostPacketOfEightWithXorParity() {
        FecHarness h = new FecHarness(config(1, false).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        assertEquals(9, frames.size(), "8 data packets, then 1 repair");
        FecRepairFlyweight repair = new FecRepairFlyweight().wrap(frames.get(8).frame(), 0);
        assertEquals(FecRepairFlyweight.TYPE, repair.type());
        assertEquals(List.of(0L, 8, 1, 0), List.of(repair.blockStart(), repair.r(), repair.c(), repair.index()));
        byte[] parity = new byte[repair.codedLength()];
        for (long seqno = 0; seqno < 8; seqno++) {
            byte[] p = FecHarness.payload(seqno);
            for (int i = 0; i < p.length; i++) {
                parity[i] ^= p[i];
            }
        }
        for (int i = 0; i < parity.length; i++) {
            assertEquals(parity[i], repair.buffer()[repair.payloadOffset() + i], "c = 1 is plain XOR parity");
        }

        h.deliverExcept(frames, 3);
        assertEquals(List.of(id(3)), h.receiverOut.deliveredBy(Delivery.LEC).stream().map(d -> d.id()).toList());
        assertEquals(8, h.receiverOut.delivered.size());
        h.assertPayloadsIntact();
        assertEquals(List.of(id(3)), h.receiverOut.discoveredIds());
        assertEquals(1, count(h.receiver, EngineCounter.LOSSES_DETECTED));
        assertEquals(1, count(h.receiver, FecCounter.FEC_RECOVERED));
        assertEquals(1, count(h.receiver, FecCounter.FEC_BLOCKS_DECODED));
        assertEquals(0, count(h.receiver, LecCounter.RECOVERED_BY_XOR), "LEC's counter is not FEC's");
        assertEquals(1, count(h.sender, FecCounter.FEC_REPAIRS_SENT));
        assertEquals(8, count(h.sender, FecCounter.FEC_ENCODE_MULADDS));
    }

    @Test
    void shouldRecoverCLostPacketsOfRPlusCWithReedSolomon() {
        FecHarness h = new FecHarness(config(3, false).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        assertEquals(11, frames.size());
        h.deliverExcept(frames, 0, 5, 9);
        assertEquals(List.of(id(0), id(5)),
                h.receiverOut.deliveredBy(Delivery.LEC).stream().map(d -> d.id()).sorted(
                        Comparator.comparingLong(PacketId::seqno)).toList());

        List<RecordingOutbox.Sent> next = h.send(8);
        h.deliverExcept(next, 1, 2, 7);
        assertEquals(5, h.receiverOut.deliveredBy(Delivery.LEC).size(), "three data packets rebuilt from 3 repairs");
        assertEquals(16, h.receiverOut.delivered.size());
        h.assertPayloadsIntact();
        assertEquals(5, count(h.receiver, FecCounter.FEC_RECOVERED));
        assertEquals(2, count(h.receiver, FecCounter.FEC_BLOCKS_DECODED));
        assertEquals(0, count(h.receiver, FecCounter.FEC_BLOCKS_UNRECOVERABLE));
        assertTrue(h.receiverOut.lost.isEmpty());
    }

    @Test
    void shouldLeaveCPlusOneLossesToTheNakLayerThatThenLetsFecFinish() {
        FecHarness h = new FecHarness(config(3, true).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        h.deliverExcept(frames, 1, 2, 4, 6);
        assertEquals(4, h.receiverOut.delivered.size(), "4 of 11 lost: FEC cannot rebuild the block");
        assertEquals(1, count(h.receiver, FecCounter.FEC_BLOCKS_UNRECOVERABLE));
        assertEquals(4, count(h.receiver, EngineCounter.LOSSES_DETECTED));
        assertEquals(1, h.receiver.pendingBlocks(), "its repairs are kept for when a packet comes back");

        h.advanceTo(h.nowNs + h.config.nakSettings().nakTimeoutNs());
        List<RecordingOutbox.Sent> naks = h.receiverOut.drain();
        assertEquals(4, naks.size());
        naks.forEach(n -> {
            assertEquals(FrameType.NAK, n.type());
            assertEquals(FecHarness.SENDER, n.to());
            assertFalse(n.multicast());
            h.toSender(n);
        });
        List<RecordingOutbox.Sent> retransmits = h.senderOut.drain();
        assertEquals(4, retransmits.size());
        assertTrue(retransmits.stream().allMatch(r -> r.type() == FrameType.RETRANSMIT));

        h.toReceiver(retransmits.get(0));
        assertEquals(List.of(id(1)), h.receiverOut.deliveredBy(Delivery.NAK).stream().map(d -> d.id()).toList());
        assertEquals(3, h.receiverOut.deliveredBy(Delivery.LEC).size(), "one retransmission leaves 3 missing of 3");
        retransmits.subList(1, 4).forEach(h::toReceiver);
        assertEquals(8, h.receiverOut.delivered.size());
        assertEquals(3, count(h.receiver, EngineCounter.DUPLICATES));
        assertEquals(0, h.receiver.pendingBlocks());
        assertEquals(0, h.receiver.pendingLosses());
        h.assertPayloadsIntact();
    }

    @Test
    void shouldReportCPlusOneLossesLostWithNakOff() {
        FecHarness h = new FecHarness(config(3, false).build());
        h.deliverExcept(h.send(8), 0, 3, 5, 8);
        assertEquals(5, h.receiverOut.delivered.size());
        h.advanceTo(h.nowNs + h.config.nakSettings().giveUpNs());
        assertEquals(List.of(id(0), id(3), id(5)), h.receiverOut.lost);
        assertEquals(3, count(h.receiver, EngineCounter.UNRECOVERED));
        assertEquals(0, count(h.receiver, NakCounter.NAKS_SENT));
        assertTrue(h.receiverOut.sent.isEmpty(), "nothing is sent with NAK off");
        assertEquals(0, h.receiver.pendingLosses());
    }

    @Test
    void shouldFlushAPartialBlockAfterTheTimeout() {
        FecHarness h = new FecHarness(config(2, false).flushTimeoutNs(50 * MS).build());
        List<RecordingOutbox.Sent> frames = h.send(3);
        assertEquals(3, frames.size(), "no repair before the block is full or its timeout");
        assertEquals(50 * MS, h.sender.nextDeadlineNs(), "due 50 ms after the block's first packet");
        assertTrue(h.senderOut.wakes.contains(50 * MS));
        h.advanceTo(50 * MS - 1);
        assertTrue(h.senderOut.sent.isEmpty());
        h.advanceTo(50 * MS);
        List<RecordingOutbox.Sent> repairs = h.senderOut.drain();
        assertEquals(2, repairs.size());
        FecRepairFlyweight first = new FecRepairFlyweight().wrap(repairs.get(0).frame(), 0);
        assertEquals(List.of(0L, 3, 2), List.of(first.blockStart(), first.r(), first.c()));
        assertEquals(1, count(h.sender, FecCounter.FEC_BLOCKS_FLUSHED));

        h.toReceiver(frames.get(1));
        repairs.forEach(h::toReceiver);
        assertEquals(2, h.receiverOut.deliveredBy(Delivery.LEC).size(), "the tail is protected");
        h.assertPayloadsIntact();

        List<RecordingOutbox.Sent> next = h.send(8);
        FecRepairFlyweight following = new FecRepairFlyweight().wrap(next.get(8).frame(), 0);
        assertEquals(3, following.blockStart(), "the next block starts after the flushed one");
        assertEquals(8, following.r());
        h.advanceTo(h.nowNs + 50 * MS);
        assertTrue(h.senderOut.sent.isEmpty(), "a block closed full is not flushed again");
    }

    @Test
    void shouldDiscoverATailLossFromTheRepairNamingItsBlock() {
        FecHarness h = new FecHarness(config(2, true).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        h.deliverExcept(frames, 7, 8);
        assertEquals(List.of(id(7)), h.receiverOut.discoveredIds(),
                "no gap shows the last packet's loss; the repair does");
        assertEquals(List.of(id(7)), h.receiverOut.deliveredBy(Delivery.LEC).stream().map(d -> d.id()).toList());
    }

    @Test
    void shouldDecodeOnceALateDataPacketLeavesFewEnoughMissing() {
        FecHarness h = new FecHarness(config(1, false).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        h.deliverExcept(frames, 2, 5);
        assertEquals(6, h.receiverOut.delivered.size());
        h.toReceiver(frames.get(5));
        assertEquals(List.of(id(5)), h.receiverOut.deliveredBy(Delivery.LATE).stream().map(d -> d.id()).toList());
        assertEquals(List.of(id(2)), h.receiverOut.deliveredBy(Delivery.LEC).stream().map(d -> d.id()).toList());
        h.assertPayloadsIntact();
    }

    @Test
    void shouldCountRepairsOfACompleteBlockUseless() {
        FecHarness h = new FecHarness(config(5, true).build());
        h.deliverExcept(h.send(8));
        assertEquals(5, count(h.receiver, FecCounter.FEC_REPAIRS_RECEIVED));
        assertEquals(5, count(h.receiver, EngineCounter.REPAIRS_USELESS));
        assertEquals(0, h.receiver.pendingBlocks());
        assertEquals(8, count(h.receiver, EngineCounter.DATA_RECEIVED));
    }

    @Test
    void shouldAnswerANakForAPacketNoLongerBufferedWithGone() {
        FecHarness h = new FecHarness(config(1, true).retransmitCapacity(2).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        h.deliverExcept(frames, 0, 1);
        h.advanceTo(h.nowNs + h.config.nakSettings().nakTimeoutNs());
        h.receiverOut.drain().forEach(h::toSender);
        List<RecordingOutbox.Sent> answers = h.senderOut.drain();
        assertEquals(List.of(FrameType.GONE, FrameType.GONE),
                answers.stream().map(RecordingOutbox.Sent::type).toList());
        answers.forEach(h::toReceiver);
        assertEquals(List.of(id(0), id(1)), h.receiverOut.lost);
        assertEquals(2, count(h.receiver, NakCounter.GONE_RECEIVED));
        assertEquals(0, h.receiver.pendingLosses());
    }

    @Test
    void shouldRejectFramesForGroupsItIsNotIn() {
        FecHarness h = new FecHarness(config(2, true).build());
        FecHarness other = new FecHarness(config(2, true).build());
        other.sender.onMembership(MembershipEvent.join(99, FecHarness.SENDER), 0);
        byte[] p = FecHarness.payload(0);
        for (int i = 0; i < 8; i++) {
            other.sender.send(99, p, 0, p.length, 0);
        }
        other.senderOut.drain().forEach(h::toReceiver);
        assertEquals(10, count(h.receiver, EngineCounter.NON_MEMBER));
        assertTrue(h.receiverOut.delivered.isEmpty());
    }

    @Test
    void shouldRejectARepairThatContradictsTheBlockItNames() {
        FecHarness h = new FecHarness(config(2, false).build());
        List<RecordingOutbox.Sent> frames = h.send(8);
        h.deliverExcept(frames, 0, 1, 2, 8, 9);
        byte[] forged = frames.get(9).frame().clone();
        new FecRepairFlyweight().wrap(forged, 0).dataLength(7, FecHarness.lengthOf(7) - 1);
        h.receiver.onPacket(forged, 0, forged.length, h.nowNs);
        assertEquals(1, count(h.receiver, EngineCounter.INVALID_PACKETS));
        h.toReceiver(frames.get(8));
        h.toReceiver(frames.get(9));
        assertEquals(0, h.receiverOut.deliveredBy(Delivery.LEC).size(), "3 missing, only 2 repairs");
    }

    @Test
    void shouldRefuseApplicationErrors() {
        FecHarness h = new FecHarness(config(2, true).build());
        byte[] big = new byte[h.config.maxPayload() + 1];
        assertThrows(IllegalArgumentException.class, () -> h.sender.send(FecHarness.GROUP, big, 0, big.length, 0));
        assertThrows(IllegalStateException.class, () -> h.sender.send(12345, new byte[1], 0, 1, 0));
    }

    @Test
    void shouldStopProtectingAGroupItLeft() {
        FecHarness h = new FecHarness(config(2, false).build());
        h.send(3);
        h.sender.onMembership(MembershipEvent.leave(FecHarness.GROUP, FecHarness.SENDER), 0);
        h.advanceTo(h.nowNs + h.config.flushTimeoutNs());
        assertTrue(h.senderOut.sent.isEmpty(), "no repair is multicast to a group this node left");
        assertThrows(IllegalStateException.class, () -> h.send(1));
    }
}
