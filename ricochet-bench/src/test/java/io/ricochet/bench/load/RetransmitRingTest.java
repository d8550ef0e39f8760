package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RetransmitRingTest {
    private static int store(RetransmitRing ring, int group, long seqno) {
        int slot = ring.claim(group, seqno);
        ring.frame(slot)[0] = (byte) seqno;
        ring.length(slot, 10);
        return slot;
    }

    @Test
    void shouldFindTheLastFramesOfEachGroup() {
        RetransmitRing ring = new RetransmitRing(2, 4, 64);
        for (long s = 0; s < 6; s++) {
            store(ring, 0, s);
        }
        store(ring, 1, 0);
        for (long s = 2; s < 6; s++) {
            int slot = ring.find(0, s);
            assertEquals((byte) s, ring.frame(slot)[0]);
            assertEquals(10, ring.length(slot));
        }
        assertEquals(-1, ring.find(0, 0), "overwritten by seqno 4");
        assertEquals(-1, ring.find(0, 1), "overwritten by seqno 5");
        assertEquals(0, ring.frame(ring.find(1, 0))[0], "groups do not share slots");
        assertEquals(-1, ring.find(1, 1), "never sent");
    }

    @Test
    void shouldNotFindASlotClaimedButNotYetWritten() {
        RetransmitRing ring = new RetransmitRing(1, 4, 64);
        store(ring, 0, 3);
        ring.claim(0, 7);
        assertEquals(-1, ring.find(0, 7));
        assertEquals(-1, ring.find(0, 3), "the claim evicted it");
    }

    @Test
    void shouldAnswerNothingForBadQuestions() {
        RetransmitRing ring = new RetransmitRing(2, 4, 64);
        store(ring, 0, 0);
        assertEquals(-1, ring.find(-1, 0));
        assertEquals(-1, ring.find(2, 0));
        assertEquals(-1, ring.find(0, -4), "a negative seqno never matches (slot arithmetic would wrap)");
        assertEquals(-1, ring.find(0, Long.MAX_VALUE));
    }

    @Test
    void shouldRefuseBadSizes() {
        RetransmitRing ring = new RetransmitRing(1, 2, 16);
        int slot = ring.claim(0, 0);
        assertThrows(IllegalArgumentException.class, () -> ring.length(slot, 17));
        assertThrows(IllegalArgumentException.class, () -> ring.length(slot, 0));
        assertThrows(IllegalArgumentException.class, () -> ring.claim(0, -1));
        assertThrows(IllegalArgumentException.class, () -> new RetransmitRing(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new RetransmitRing(1 << 16, 1 << 16, 1 << 10));
    }
}
