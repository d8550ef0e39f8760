package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
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
        buffer.drain((frame, length) -> ids.add((frame[0] & 0xFF) | (frame[1] & 0xFF) << 8));
        return ids;
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
}
