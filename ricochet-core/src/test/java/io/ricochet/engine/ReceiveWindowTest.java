package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The receive window against a plain set of resolved seqnos, over random resolution orders. */
class ReceiveWindowTest {
    @Test
    void shouldAgreeWithAReferenceSetUnderRandomResolutionOrder() {
        SplittableRandom rng = new SplittableRandom(99);
        for (int trial = 0; trial < 200; trial++) {
            long start = rng.nextInt(1000);
            int maxWindow = 64 << rng.nextInt(6);
            ReceiveWindow window = new ReceiveWindow(start, maxWindow);
            Set<Long> resolved = new HashSet<>();
            long base = start;
            for (int step = 0; step < 3000; step++) {
                long seqno = base + rng.nextInt(Math.min(maxWindow, 1 + rng.nextInt(300)));
                assertTrue(!window.beyondWindow(seqno));
                window.resolve(seqno);
                resolved.add(seqno);
                while (resolved.contains(base)) {
                    base++;
                }
                assertEquals(base, window.base(), "trial " + trial + " step " + step);
                for (long probe = base - 3; probe < base + 200; probe++) {
                    boolean expected = probe < base || resolved.contains(probe);
                    assertEquals(expected, window.isResolved(probe), "trial " + trial + " seqno " + probe);
                }
            }
            assertTrue(window.memoryBytes() <= Math.max(8, maxWindow / 8 * 2), "memory " + window.memoryBytes());
        }
    }

    @Test
    void shouldTrackTheHighestSeqnoKnownToExist() {
        ReceiveWindow window = new ReceiveWindow(0, 1024);
        assertEquals(-1, window.highest());
        assertEquals(-1, window.observe(5));
        assertEquals(5, window.observe(3));
        assertEquals(5, window.highest());
        assertTrue(window.beyondWindow(1024));
    }

    @Test
    void shouldRevealEachGapOnlyOnce() {
        ReceiveWindow window = new ReceiveWindow(0, 1024);
        assertEquals(0, window.revealUpTo(4), "0..4 revealed");
        assertEquals(5, window.revealUpTo(4), "nothing new: the range [5, 4] is empty");
        window.resolve(9);
        assertEquals(10, window.revealUpTo(12), "9 was already known to exist");
        assertEquals(12, window.highest());
    }

    @Test
    void shouldSlideRatherThanWedgeAndAgreeWithAReferenceThatForgetsBelowTheBase() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int trial = 0; trial < 100; trial++) {
            int maxWindow = 64 << rng.nextInt(4);
            ReceiveWindow window = new ReceiveWindow(0, maxWindow);
            Set<Long> resolved = new HashSet<>();
            long base = 0;
            for (int step = 0; step < 2000; step++) {
                // Mostly near the base, sometimes far beyond the window: a receiver that fell behind.
                long seqno = base + (rng.nextInt(10) == 0 ? maxWindow + rng.nextInt(3 * maxWindow)
                        : rng.nextInt(maxWindow));
                window.resolve(seqno);
                resolved.add(seqno);
                base = Math.max(base, seqno - maxWindow + 1);
                while (resolved.contains(base)) {
                    base++;
                }
                assertEquals(base, window.base(), "trial " + trial + " step " + step);
                assertTrue(seqno - window.base() < maxWindow, "the new seqno is inside the window");
                for (long probe = base; probe < base + maxWindow; probe++) {
                    assertEquals(resolved.contains(probe), window.isResolved(probe), "trial " + trial + " " + probe);
                }
            }
            assertTrue(window.memoryBytes() <= Math.max(8, maxWindow / 8 * 2), "memory " + window.memoryBytes());
        }
    }

    @Test
    void shouldRestartWhereToldAndTellAJumpFromASlide() {
        ReceiveWindow window = new ReceiveWindow(0, 64);
        window.resolve(0);
        assertEquals(64L * ReceiveWindow.MAX_JUMP_WINDOWS, window.maxJump());
        assertTrue(!window.isJump(window.maxJump()), "exactly the largest jump from the highest seqno (0)");
        assertTrue(window.isJump(window.maxJump() + 1));
        window.restartAt(5000);
        assertEquals(5000, window.base());
        assertEquals(4999, window.highest());
        assertTrue(!window.isResolved(5000));
        window.resolve(5000);
        assertEquals(5001, window.base());
    }
}
