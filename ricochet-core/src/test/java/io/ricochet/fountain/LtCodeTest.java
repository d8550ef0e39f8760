package io.ricochet.fountain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** LT codes end to end: any large enough set of symbols rebuilds the message, whatever was lost or when one began. */
class LtCodeTest {
    private static final double C = 0.03;
    private static final double DELTA = 0.5;

    private static byte[] message(int length, long seed) {
        byte[] m = new byte[length];
        new SplittableRandom(seed).nextBytes(m);
        return m;
    }

    /** Feeds symbols first, first + 1, ... dropping each with probability loss; returns the symbols fed. */
    private static long decode(LtEncoder encoder, LtDecoder decoder, long first, double loss, long seed) {
        SplittableRandom drops = new SplittableRandom(seed);
        byte[] symbol = new byte[encoder.symbolSize()];
        long fed = 0;
        for (long id = first; !decoder.isComplete(); id++) {
            assertTrue(id - first < 10L * encoder.k() + 1_000, "no decode after " + (id - first) + " symbols");
            encoder.encode(id, symbol, 0);
            if (drops.nextDouble() < loss) {
                continue;
            }
            fed++;
            int result = decoder.receive(id, symbol, 0, symbol.length);
            assertTrue(result >= 0, "refused: " + result);
        }
        return fed;
    }

    @Test
    void shouldRebuildTheMessageFromSymbolsStartingAnywhereWithLosses() {
        byte[] m = message(100_003, 1);
        int size = 256;
        LtEncoder encoder = new LtEncoder(m, 0, m.length, size, C, DELTA, 42);
        assertEquals(391, encoder.k());
        for (long first : new long[] {0, 1_000_000, -5, Long.MAX_VALUE - 10 * 391L - 2_000}) {
            LtDecoder decoder = new LtDecoder(encoder.k(), size, C, DELTA, 42, 2 * encoder.k());
            long fed = decode(encoder, decoder, first, 0.3, first);
            assertArrayEquals(m, Arrays.copyOf(decoder.message(), m.length), "from symbol " + first);
            assertTrue(fed >= encoder.k(), "fed " + fed);
            assertEquals(LtDecoder.COMPLETE, decoder.receive(first, new byte[size], 0, size));
        }
    }

    @Test
    void shouldDecodeSymbolsInAnyOrderWithDuplicates() {
        byte[] m = message(20_000, 2);
        LtEncoder encoder = new LtEncoder(m, 0, m.length, 100, C, DELTA, 7);
        LtDecoder decoder = new LtDecoder(encoder.k(), 100, C, DELTA, 7, 4 * encoder.k());
        long[] ids = new long[4 * encoder.k()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i / 2; // every symbol twice
        }
        SplittableRandom rng = new SplittableRandom(3);
        for (int i = ids.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            long t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        byte[] symbol = new byte[100];
        for (long id : ids) {
            if (decoder.isComplete()) {
                break;
            }
            encoder.encode(id, symbol, 0);
            decoder.receive(id, symbol, 0, 100);
        }
        assertTrue(decoder.isComplete());
        assertArrayEquals(m, Arrays.copyOf(decoder.message(), m.length));
    }

    @Test
    void shouldGiveTheSameSymbolsForTheSameSeedOnly() {
        byte[] m = message(4_096, 3);
        byte[] a = new byte[64];
        byte[] b = new byte[64];
        new LtEncoder(m, 0, m.length, 64, C, DELTA, 9).encode(77, a, 0);
        new LtEncoder(m, 0, m.length, 64, C, DELTA, 9).encode(77, b, 0);
        assertArrayEquals(a, b);
        new LtEncoder(m, 0, m.length, 64, C, DELTA, 10).encode(77, b, 0);
        assertFalse(Arrays.equals(a, b));
    }

    @Test
    void shouldDrawDistinctNeighboursInRangeWithTheDistributionsMeanDegree() {
        RobustSoliton distribution = new RobustSoliton(1_000, C, DELTA);
        SymbolDraw draw = new SymbolDraw(distribution, 5);
        long total = 0;
        int draws = 200_000;
        for (long id = 0; id < draws; id++) {
            int d = draw.draw(id);
            total += d;
            int[] n = Arrays.copyOf(draw.neighbours(), d);
            Arrays.sort(n);
            for (int i = 0; i < d; i++) {
                assertTrue(n[i] >= 0 && n[i] < 1_000, "neighbour " + n[i]);
                assertTrue(i == 0 || n[i] != n[i - 1], "symbol " + id + " repeats " + n[i]);
            }
        }
        assertEquals(distribution.meanDegree(), total / (double) draws, 0.02 * distribution.meanDegree());
    }

    @Test
    void shouldRefuseAWrongLengthAndAFullPoolWithoutChangingAnything() {
        byte[] m = message(10_000, 4);
        LtEncoder encoder = new LtEncoder(m, 0, m.length, 100, C, DELTA, 11);
        LtDecoder decoder = new LtDecoder(encoder.k(), 100, C, DELTA, 11, 2);
        byte[] symbol = new byte[100];
        assertEquals(LtDecoder.WRONG_LENGTH, decoder.receive(0, symbol, 0, 99));
        assertEquals(0, decoder.received());
        int full = 0;
        for (long id = 0; id < 1_000 && !decoder.isComplete(); id++) {
            encoder.encode(id, symbol, 0);
            if (decoder.receive(id, symbol, 0, 100) == LtDecoder.POOL_FULL) {
                full++;
            }
        }
        assertTrue(full > 0, "a pool of 2 fills");
        // Refused symbols change nothing: the same decoder, given everything again with room, still decodes right.
        LtDecoder roomy = new LtDecoder(encoder.k(), 100, C, DELTA, 11, 2 * encoder.k());
        decode(encoder, roomy, 0, 0, 0);
        assertArrayEquals(m, Arrays.copyOf(roomy.message(), m.length));
        if (decoder.isComplete()) {
            assertArrayEquals(m, Arrays.copyOf(decoder.message(), m.length));
        }
    }

    @Test
    void shouldNeedFewSymbolsMoreThanKOnAverage() {
        int k = 1_000;
        byte[] m = new byte[k];
        LtEncoder encoder = new LtEncoder(m, 0, k, 1, C, DELTA, 0);
        LtDecoder decoder = new LtDecoder(k, 0, C, DELTA, 0, k);
        double sum = 0;
        int runs = 50;
        for (int run = 0; run < runs; run++) {
            LtEncoder seeded = new LtEncoder(m, 0, k, 1, C, DELTA, run);
            LtDecoder fresh = new LtDecoder(k, 1, C, DELTA, run, 2 * k);
            sum += decode(seeded, fresh, 0, 0, run) / (double) k;
        }
        assertNotEquals(0, encoder.k());
        assertTrue(sum / runs < 1.25, "mean inefficiency " + sum / runs + " at k = 1000");
        assertEquals(0, decoder.known());
    }

    @Test
    void shouldAllocateNothingPerSymbolOnceWarm() {
        byte[] m = message(64_000, 5);
        LtEncoder encoder = new LtEncoder(m, 0, m.length, 64, C, DELTA, 13);
        LtDecoder decoder = new LtDecoder(encoder.k(), 64, C, DELTA, 13, 2 * encoder.k());
        decode(encoder, decoder, 0, 0.1, 1); // warm: the edge and inactivation arrays reach their size
        decoder.reset();
        decode(encoder, decoder, 0, 0, 1);
        assertTrue(decoder.attempts() > 0, "the measured decode below ends by inactivation");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        decoder.reset();
        byte[] symbol = new byte[64];
        long before = threads.getThreadAllocatedBytes(thread);
        long id = 0;
        while (!decoder.isComplete()) {
            encoder.encode(id, symbol, 0);
            decoder.receive(id++, symbol, 0, 64);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(allocated < 4_096, allocated + " bytes allocated for " + id + " symbols");
        assertArrayEquals(m, Arrays.copyOf(decoder.message(), m.length));
    }

    @Test
    void shouldUseSourceSymbolsItIsToldAndRefuseBadTelling() {
        byte[] m = message(50 * 32, 8);
        LtEncoder encoder = new LtEncoder(m, 0, m.length, 32, C, DELTA, 21);
        LtDecoder decoder = new LtDecoder(50, 32, C, DELTA, 21, 100);
        for (int i = 0; i < 50; i++) {
            if (i % 10 != 3) {
                assertTrue(decoder.know(i, m, i * 32, 32));
            }
        }
        assertFalse(decoder.know(0, m, 0, 32), "already known");
        assertFalse(decoder.know(50, m, 0, 32), "out of range");
        assertFalse(decoder.know(3, m, 0, 33), "longer than a symbol");
        assertEquals(45, decoder.known());
        long fed = decode(encoder, decoder, 0, 0, 0);
        assertArrayEquals(m, decoder.message());
        long untold = decode(encoder, new LtDecoder(50, 32, C, DELTA, 21, 100), 0, 0, 0);
        // Each symbol serves only through the unknown it holds, and each of the 5 is in a symbol with probability
        // mean degree / k: waiting for all 5 to be covered is most of the cost at so small a k.
        assertTrue(fed < untold, fed + " symbols for the 5 unknown of 50, " + untold + " for all 50");
    }
}
