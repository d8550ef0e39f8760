package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The store's copies, its FIFO eviction, and a lent datagram kept in place of a copy. */
class PacketStoreTest {
    private static final int MAX_PAYLOAD = 32;
    private static final int DATAGRAM = 64;
    private static final int AT = 10;

    private final Counters counters = new Counters(Counters.set(EngineCounter.values()));

    private PacketStore store(int capacity) {
        return new PacketStore(capacity, MAX_PAYLOAD, counters, EngineCounter.DATA_CACHE_EVICTIONS);
    }

    private static PacketId id(long seqno) {
        return new PacketId(1, 5, seqno);
    }

    /** A datagram of {@link #DATAGRAM} bytes with {@code length} bytes of {@code value} at {@link #AT}. */
    private static byte[] datagram(int value, int length) {
        byte[] d = new byte[DATAGRAM];
        Arrays.fill(d, AT, AT + length, (byte) value);
        return d;
    }

    private static byte[] held(PacketStore store, PacketId id) {
        int slot = store.find(id);
        return Arrays.copyOfRange(store.payload(slot), store.offset(slot), store.offset(slot) + store.length(slot));
    }

    @Test
    void aPutCopiesAndTheOldestIsEvictedWhenFull() {
        PacketStore store = store(2);
        byte[] src = datagram(1, 8);
        store.put(id(0), src, AT, 8);
        Arrays.fill(src, (byte) 9);
        store.put(id(1), datagram(2, 4), AT, 4);
        store.put(id(2), datagram(3, 4), AT, 4);

        assertEquals(-1, store.find(id(0)), "evicted, first in");
        assertEquals(1, counters.get(EngineCounter.DATA_CACHE_EVICTIONS));
        assertArrayEquals(new byte[] {2, 2, 2, 2}, held(store, id(1)));
        assertArrayEquals(new byte[] {3, 3, 3, 3}, held(store, id(2)));
        assertEquals(0, store.offset(store.find(id(2))), "a copy lies at the start of its slot");
    }

    @Test
    void aLentDatagramIsKeptItselfAndTheLenderGetsAnotherOfItsLength() {
        PacketStore store = store(4);
        byte[] lent = datagram(7, 8);
        store.lend(lent);
        int slot = store.put(id(0), lent, AT, 8);
        byte[] back = store.endLending();

        assertSame(lent, store.payload(slot), "kept, not copied");
        assertEquals(AT, store.offset(slot));
        assertNotSame(lent, back);
        assertEquals(DATAGRAM, back.length);
        Arrays.fill(back, (byte) 9); // the lender's to reuse
        assertArrayEquals(new byte[] {7, 7, 7, 7, 7, 7, 7, 7}, held(store, id(0)));
    }

    @Test
    void aLendingWithoutAPutOfTheLentArrayGivesItBack() {
        PacketStore store = store(4);
        byte[] lent = datagram(7, 8);
        store.lend(lent);
        store.put(id(0), datagram(3, 8), AT, 8); // another array: copied
        assertSame(lent, store.endLending());
        assertNotSame(lent, store.payload(store.find(id(0))));
    }

    @Test
    void aSlotSwapsItsArrayForTheNextLentDatagramOnceTheStoreWrapsAround() {
        PacketStore store = store(2);
        byte[][] lent = new byte[3][];
        byte[][] given = new byte[3][];
        for (int i = 0; i < 3; i++) {
            lent[i] = datagram(i + 1, 8);
            store.lend(lent[i]);
            store.put(id(i), lent[i], AT, 8);
            given[i] = store.endLending();
        }
        assertSame(lent[0], given[2], "the third took slot 0 and gave back the array the first lay in");
        assertEquals(-1, store.find(id(0)));
        assertArrayEquals(new byte[] {2, 2, 2, 2, 2, 2, 2, 2}, held(store, id(1)));
        assertArrayEquals(new byte[] {3, 3, 3, 3, 3, 3, 3, 3}, held(store, id(2)));
        assertEquals(2L * DATAGRAM, store.memoryBytes());
    }

    @Test
    void aCopyNeverLandsInTheArrayTheLenderStillReadsInTheSameCall() {
        // Capacity 1: a packet rebuilt during the call that cached the lent datagram takes the same slot.
        PacketStore store = store(1);
        byte[] lent = datagram(7, 8);
        store.lend(lent);
        store.put(id(0), lent, AT, 8);
        store.put(id(1), datagram(3, 8), AT, 8);
        byte[] back = store.endLending();

        byte[] untouched = datagram(7, 8);
        assertArrayEquals(untouched, lent, "the lent datagram is as the lender left it");
        assertNotSame(lent, store.payload(store.find(id(1))));
        assertArrayEquals(new byte[] {3, 3, 3, 3, 3, 3, 3, 3}, held(store, id(1)));
        assertEquals(DATAGRAM, back.length);
    }

    @Test
    void aLentDatagramOfAnotherLengthThanTheSlotsArrayIsCopied() {
        PacketStore store = store(1);
        store.put(id(0), datagram(1, 8), AT, 8); // the slot's array: MAX_PAYLOAD bytes
        byte[] lent = datagram(2, 8);
        store.lend(lent);
        store.put(id(1), lent, AT, 8);
        assertSame(lent, store.endLending());
        assertArrayEquals(new byte[] {2, 2, 2, 2, 2, 2, 2, 2}, held(store, id(1)));
        assertEquals(MAX_PAYLOAD, store.memoryBytes());
    }
}
