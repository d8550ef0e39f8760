package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PacketIdTest {

    @Test
    void shouldHashTheStreamsOfABusyNodeApart() {
        // 4 senders x 16 groups x 4096 consecutive seqnos: what a daemon's packet maps hold at once.
        Set<Integer> hashes = new HashSet<>();
        int ids = 0;
        for (int origin = 1; origin <= 4; origin++) {
            for (int group = 100; group < 116; group++) {
                for (long seqno = 0; seqno < 4096; seqno++) {
                    hashes.add(new PacketId(origin, group, seqno).hashCode());
                    ids++;
                }
            }
        }
        assertTrue(hashes.size() > ids - 100, hashes.size() + " distinct hashes for " + ids + " ids");
    }

    @Test
    void shouldNotCollideWhereSumsOfTheFieldsDo() {
        assertNotEquals(new PacketId(1, 5, 100).hashCode(), new PacketId(1, 6, 69).hashCode());
        assertNotEquals(new PacketId(1, 5, 100).hashCode(), new PacketId(2, 5, 100 - 961).hashCode());
    }

    @Test
    void shouldKeepEqualityByValue() {
        assertEquals(new PacketId(3, 4, 5), new PacketId(3, 4, 5));
        assertEquals(new PacketId(3, 4, 5).hashCode(), new PacketId(3, 4, 5).hashCode());
        assertNotEquals(new PacketId(3, 4, 5), new PacketId(3, 4, 6));
        assertNotEquals(new PacketId(3, 4, 5), new PacketId(3, 5, 5));
        assertNotEquals(new PacketId(3, 4, 5), new PacketId(2, 4, 5));
        assertNotEquals(new PacketId(3, 4, 5), null);
        assertNotEquals(new PacketId(3, 4, 5), (Object) "(3,4,5)");
    }
}
