package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.fec.FecRepairFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The application-level receive buffer: bounded, random drop on overflow, control before data. */
class ReceiveBufferTest {
    private final Counters counters = new Counters(DaemonCounter.ALL);

    private static byte[] packet(int id) {
        return new byte[] {(byte) id, (byte) (id >> 8)};
    }

    private static List<Integer> drain(ReceiveBuffer buffer) {
        List<Integer> ids = new ArrayList<>();
        buffer.drain((frame, length) -> {
            ids.add((frame[0] & 0xFF) | (frame[1] & 0xFF) << 8);
            return frame;
        });
        return ids;
    }

    /** A frame of {@code type} whose first two bytes are {@code id} (the type byte sits after them). */
    private static byte[] typed(int id, int type) {
        byte[] frame = new byte[HeaderFlyweight.HEADER_LENGTH];
        frame[0] = (byte) id;
        frame[1] = (byte) (id >> 8);
        frame[HeaderFlyweight.TYPE_OFFSET] = (byte) type;
        return frame;
    }

    @Test
    void aDatagramTheSinkKeepsIsReplacedByTheArrayItGivesBack() {
        ReceiveBuffer buffer = new ReceiveBuffer(4, 64, new SplittableRandom(1), counters);
        byte[] frame = typed(1, FrameType.DATA);
        buffer.offer(true, frame, 0, frame.length, frame.length);
        byte[][] kept = new byte[1][];
        byte[] replacement = new byte[buffer.maxDatagram()];
        buffer.drain((datagram, length) -> {
            kept[0] = datagram;
            return replacement;
        });
        byte[] next = typed(2, FrameType.DATA);
        for (int i = 0; i < 5; i++) { // around the ring: every slot is written once
            buffer.offer(true, next, 0, next.length, next.length);
            drain(buffer);
        }
        assertEquals(1, kept[0][0], "the kept datagram is never written into again");
        assertEquals(2, replacement[0], "its replacement carries datagrams now");
    }

    @Test
    void aSinkMustGiveBackAnArrayOfTheSlotsLength() {
        ReceiveBuffer buffer = new ReceiveBuffer(4, 64, new SplittableRandom(1), counters);
        byte[] frame = typed(1, FrameType.DATA);
        buffer.offer(true, frame, 0, frame.length, frame.length);
        assertThrows(IllegalStateException.class, () -> buffer.drain((datagram, length) -> new byte[8]));
    }

    @Test
    void shouldHandOutControlThenDataThenRepairsAndAnnouncements() {
        ReceiveBuffer buffer = new ReceiveBuffer(16, 64, new SplittableRandom(1), counters);
        int[] types = {FrameType.REPAIR, FrameType.DATA, FrameType.NAK, FecRepairFlyweight.TYPE, FrameType.DATA,
            FrameType.SESSION, FrameType.RETRANSMIT, FrameType.TAIL};
        for (int id = 0; id < types.length; id++) {
            byte[] frame = typed(id, types[id]);
            buffer.offer(types[id] == FrameType.DATA, frame, 0, frame.length, frame.length);
        }
        assertEquals(List.of(2, 6, 1, 4, 0, 3, 5, 7), drain(buffer),
                "NAK, RETRANSMIT; data; the repairs, SESSION and TAIL, each class in arrival order");
        assertEquals(0, buffer.size());
        byte[] next = typed(9, FrameType.DATA);
        buffer.offer(true, next, 0, next.length, next.length);
        assertEquals(List.of(9), drain(buffer), "emptied: the next batch holds only what came after");
    }

    @Test
    void shouldHandOutControlTrafficBeforeData() {
        ReceiveBuffer buffer = new ReceiveBuffer(16, 64, new SplittableRandom(1), counters);
        buffer.offer(true, packet(1), 0, 2, 2);
        buffer.offer(false, packet(2), 0, 2, 2);
        buffer.offer(true, packet(3), 0, 2, 2);
        buffer.offer(false, packet(4), 0, 2, 2);
        assertEquals(List.of(2, 4, 1, 3), drain(buffer));
        assertEquals(0, buffer.size());
    }

    @Test
    void shouldTurnABurstIntoScatteredLossesNotATailDrop() {
        // A full buffer of 64 takes a burst of 100 more without draining. Tail drop would lose the 100 newest in
        // one run; random drop keeps every newcomer and spreads the 100 losses over the 164 packets.
        ReceiveBuffer buffer = new ReceiveBuffer(64, 64, new SplittableRandom(5), counters);
        for (int i = 0; i < 164; i++) {
            buffer.offer(true, packet(i), 0, 2, 2);
        }
        assertEquals(64, buffer.size());
        assertEquals(100, counters.get(DaemonCounter.RX_BUFFER_RANDOM_DROPS));
        Set<Integer> kept = new HashSet<>(drain(buffer));
        assertEquals(64, kept.size());
        assertTrue(kept.contains(163), "the newest packet is always kept");
        int longestRun = 0;
        int run = 0;
        for (int i = 0; i < 164; i++) {
            run = kept.contains(i) ? 0 : run + 1;
            longestRun = Math.max(longestRun, run);
        }
        assertTrue(longestRun < 50, "longest run of losses " + longestRun + " (tail drop would give 100)");
        assertTrue(kept.stream().anyMatch(id -> id < 64), "some packets from before the burst survive");
    }

    @Test
    void shouldRefuseDatagramsLargerThanItsSlots() {
        ReceiveBuffer buffer = new ReceiveBuffer(16, 4, new SplittableRandom(1), counters);
        assertFalse(buffer.offer(true, new byte[5], 0, 5, 5));
        assertFalse(buffer.offer(true, new byte[5], 0, 3, 5), "a frame and its trailer count together");
        assertEquals(0, buffer.size());
    }

    @Test
    void shouldOfferAFreeSlotEvenWhenFullAndLoseNothingForADatagramNotCommitted() {
        ReceiveBuffer buffer = new ReceiveBuffer(4, 64, new SplittableRandom(3), counters);
        for (int i = 0; i < 4; i++) {
            buffer.offer(true, packet(i), 0, 2, 2);
        }
        byte[] spare = buffer.spare(true);
        System.arraycopy(packet(99), 0, spare, 0, 2);
        // Not committed (say its tag was wrong): the ring is as it was, and the same slot is offered again.
        assertEquals(0, counters.get(DaemonCounter.RX_BUFFER_RANDOM_DROPS));
        assertTrue(spare == buffer.spare(true), "the free slot is offered again");
        assertEquals(List.of(0, 1, 2, 3), drain(buffer));
    }

    @Test
    void shouldKeepACommittedSlotWithoutCopyingAndDropARandomOneWhenFull() {
        ReceiveBuffer buffer = new ReceiveBuffer(4, 64, new SplittableRandom(3), counters);
        for (int i = 0; i < 4; i++) {
            buffer.offer(false, packet(i), 0, 2, 2);
        }
        System.arraycopy(packet(7), 0, buffer.spare(false), 0, 2);
        buffer.commit(false, 2);
        assertEquals(1, counters.get(DaemonCounter.RX_BUFFER_RANDOM_DROPS));
        List<Integer> kept = drain(buffer);
        assertEquals(4, kept.size());
        assertEquals(7, kept.get(3), "the committed datagram is the newest");
        assertEquals(3, kept.stream().filter(id -> id < 4).distinct().count());
    }

    @Test
    void shouldCycleThroughAllSlotsWithSpareAndCommit() {
        ReceiveBuffer buffer = new ReceiveBuffer(3, 64, new SplittableRandom(1), counters);
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            System.arraycopy(packet(i), 0, buffer.spare(true), 0, 2);
            buffer.commit(true, 2);
            if (i % 2 == 1) {
                all.addAll(drain(buffer));
            }
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expected.add(i);
        }
        assertEquals(expected, all);
    }
}
