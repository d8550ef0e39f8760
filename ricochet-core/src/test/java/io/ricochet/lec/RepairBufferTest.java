package io.ricochet.lec;

import static io.ricochet.engine.Frames.id;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.Bytes;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounded buffer of unusable repairs: FIFO eviction, index by missing id, reduction as packets arrive. */
class RepairBufferTest {
    private static final int G = 4;
    private static final int MAX_PAYLOAD = 512;

    private final Counters counters = new Counters(Counters.set(EngineCounter.values(), LecCounter.values()));

    /** A repair of the given packets, none of them available yet. */
    private static StoredRepair repair(PacketId... ids) {
        StoredRepair r = new StoredRepair(MAX_PAYLOAD, 0);
        r.clear();
        for (PacketId id : ids) {
            byte[] p = Frames.payload(id);
            r.addMissing(id, p.length, p, 0);
            Bytes.xorInto(r.xor, 0, p, 0, p.length);
            r.xorLength = Math.max(r.xorLength, p.length);
        }
        return r;
    }

    @Test
    void shouldIndexABufferedRepairByEveryPacketItMisses() {
        RepairBuffer buffer = new RepairBuffer(4, MAX_PAYLOAD, 0, counters);

        assertTrue(buffer.store(repair(id(1, G, 0), id(1, G, 1))));

        assertEquals(1, buffer.size());
        assertEquals(1, buffer.waitingOn(id(1, G, 0)).size());
        assertEquals(1, buffer.waitingOn(id(1, G, 1)).size());
        assertEquals(0, buffer.waitingOn(id(1, G, 2)).size());
        assertEquals(1, counters.get(LecCounter.REPAIRS_BUFFERED));
    }

    @Test
    void shouldEvictTheOldestWhenFullAndStayWithinItsMemory() {
        RepairBuffer buffer = new RepairBuffer(2, MAX_PAYLOAD, 0, counters);
        for (long s = 0; s < 10; s += 2) {
            buffer.store(repair(id(1, G, s), id(1, G, s + 1)));
        }

        assertEquals(2, buffer.size());
        assertEquals(3, counters.get(LecCounter.UNUSABLE_REPAIR_EVICTIONS));
        assertEquals(0, buffer.waitingOn(id(1, G, 0)).size(), "the oldest left its index too");
        assertEquals(1, buffer.waitingOn(id(1, G, 8)).size());
        assertTrue(buffer.memoryBytes() <= 2L * (MAX_PAYLOAD + 64) + 1024, "bytes: " + buffer.memoryBytes());
    }

    @Test
    void shouldKeepNothingWithCapacityZero() {
        RepairBuffer buffer = new RepairBuffer(0, MAX_PAYLOAD, 0, counters);

        assertFalse(buffer.store(repair(id(1, G, 0), id(1, G, 1))));
        assertEquals(0, buffer.size());
    }

    @Test
    void shouldReduceByAnArrivingPacketAndHandOverWhatHasOneMissingLeft() {
        RepairBuffer buffer = new RepairBuffer(4, MAX_PAYLOAD, 0, counters);
        buffer.store(repair(id(1, G, 0), id(1, G, 1)));
        buffer.store(repair(id(1, G, 0), id(1, G, 2), id(1, G, 3)));
        ArrayDeque<StoredRepair> ready = new ArrayDeque<>();

        byte[] p0 = Frames.payload(id(1, G, 0));
        buffer.onAvailable(id(1, G, 0), p0, 0, p0.length, ready);

        assertEquals(1, ready.size(), "only the first is down to one missing packet");
        StoredRepair one = ready.poll();
        assertEquals(1, one.count);
        assertEquals(id(1, G, 1), one.ids[0]);
        byte[] p1 = Frames.payload(id(1, G, 1));
        assertArrayEquals(p1, java.util.Arrays.copyOf(one.xor, p1.length), "what is left is p1 itself");
        assertEquals(List.of(), List.copyOf(buffer.waitingOn(id(1, G, 0))));
    }

    @Test
    void shouldReleaseTheRepairsOfAStream() {
        RepairBuffer buffer = new RepairBuffer(4, MAX_PAYLOAD, 0, counters);
        buffer.store(repair(id(1, G, 0), id(1, G, 1)));
        buffer.store(repair(id(2, G, 0), id(2, G, 1)));

        buffer.releaseStream(1, G);

        assertEquals(1, buffer.size());
        assertEquals(0, buffer.waitingOn(id(1, G, 1)).size());
        assertEquals(1, buffer.waitingOn(id(2, G, 1)).size());
    }
}
