package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The systematic Reed-Solomon code: any r of the r + c packets of a block rebuild it. */
class ReedSolomonTest {
    private static final int MAX_LENGTH = 300;
    /** Where a present payload starts in the array the block is given. */
    private static final int HELD_AT = 11;

    /** A block of random payloads and its repairs. */
    private record Coded(byte[][] data, byte[][] repairs, int codedLength) {
    }

    private static Coded encode(SplittableRandom rng, int r, int c) {
        byte[][] data = new byte[r][];
        ReedSolomonEncoder encoder = new ReedSolomonEncoder(r, c, MAX_LENGTH);
        for (int j = 0; j < r; j++) {
            data[j] = new byte[rng.nextInt(8) == 0 ? 0 : rng.nextInt(MAX_LENGTH + 1)];
            rng.nextBytes(data[j]);
            assertEquals(j, encoder.add(data[j], 0, data[j].length));
        }
        byte[][] repairs = new byte[c][];
        for (int i = 0; i < c; i++) {
            repairs[i] = Arrays.copyOf(encoder.repair(i), encoder.codedLength());
        }
        return new Coded(data, repairs, encoder.codedLength());
    }

    /** Loads the packets whose bit is set in {@code received} (data first, then repairs) into a block. */
    private static ErasureBlock receive(Coded coded, boolean[] received) {
        int r = coded.data.length;
        ErasureBlock block = new ErasureBlock(ReedSolomon.MAX_DATA, coded.repairs.length, MAX_LENGTH);
        block.reset(r, coded.codedLength);
        for (int j = 0; j < r; j++) {
            block.length(j, coded.data[j].length);
            if (received[j]) {
                // Held behind and before stale bytes, as a cache keeping whole datagrams holds it.
                byte[] stale = new byte[HELD_AT + MAX_LENGTH];
                Arrays.fill(stale, (byte) 0x5A);
                System.arraycopy(coded.data[j], 0, stale, HELD_AT, coded.data[j].length);
                block.present(j, stale, HELD_AT);
            }
        }
        for (int i = 0; i < coded.repairs.length; i++) {
            if (received[r + i]) {
                System.arraycopy(coded.repairs[i], 0, block.addRepair(i), 0, coded.codedLength);
            }
        }
        return block;
    }

    private static void assertRebuilt(Coded coded, ErasureBlock block, String what) {
        for (int j = 0; j < coded.data.length; j++) {
            byte[] got = Arrays.copyOfRange(block.data(j), block.offset(j), block.offset(j) + coded.data[j].length);
            assertArrayEquals(coded.data[j], got, what + ": data packet " + j);
        }
    }

    /** A random set of exactly {@code keep} of {@code n} packets. */
    private static boolean[] randomSubset(SplittableRandom rng, int n, int keep) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        boolean[] chosen = new boolean[n];
        for (int i = 0; i < keep; i++) {
            chosen[order[i]] = true;
        }
        return chosen;
    }

    @Test
    void shouldRebuildTheBlockFromAnyROfItsRPlusCPackets() {
        SplittableRandom rng = new SplittableRandom(42);
        ReedSolomonDecoder decoder = new ReedSolomonDecoder(ReedSolomon.MAX_DATA, 8, MAX_LENGTH);
        for (int r = 1; r <= 16; r++) {
            for (int c = 1; c <= 8; c++) {
                for (int trial = 0; trial < 25; trial++) {
                    Coded coded = encode(rng, r, c);
                    boolean[] received = randomSubset(rng, r + c, r + rng.nextInt(c + 1));
                    ErasureBlock block = receive(coded, received);
                    int erasures = block.erasures();
                    String what = "(r, c) = (" + r + ", " + c + "), received " + Arrays.toString(received);
                    assertEquals(erasures, decoder.decode(block), what);
                    assertRebuilt(coded, block, what);
                }
            }
        }
    }

    @Test
    void shouldRebuildEveryErasurePatternOfTheDefaultRateOfFire() {
        SplittableRandom rng = new SplittableRandom(7);
        Coded coded = encode(rng, 8, 5);
        ReedSolomonDecoder decoder = new ReedSolomonDecoder(8, 5, MAX_LENGTH);
        int patterns = 0;
        for (int mask = 0; mask < 1 << 13; mask++) {
            if (Integer.bitCount(mask) != 8) {
                continue;
            }
            boolean[] received = new boolean[13];
            for (int i = 0; i < 13; i++) {
                received[i] = (mask & (1 << i)) != 0;
            }
            ErasureBlock block = receive(coded, received);
            decoder.decode(block);
            assertRebuilt(coded, block, "pattern " + Integer.toBinaryString(mask));
            patterns++;
        }
        assertEquals(1287, patterns, "C(13, 8)");
    }

    @Test
    void shouldRefuseWhenMorePacketsAreErasedThanRepairsHeld() {
        SplittableRandom rng = new SplittableRandom(9);
        for (int c = 1; c <= 8; c++) {
            Coded coded = encode(rng, 10, c);
            boolean[] received = randomSubset(rng, 10 + c, 9);
            ErasureBlock block = receive(coded, received);
            assertEquals(-1, new ReedSolomonDecoder(10, c, MAX_LENGTH).decode(block));
            for (int j = 0; j < 10; j++) {
                if (!block.isPresent(j)) {
                    assertNull(block.data(j), "nothing is touched");
                }
            }
        }
    }

    @Test
    void shouldMakeTheFirstRepairThePlainXorParity() {
        SplittableRandom rng = new SplittableRandom(11);
        Coded coded = encode(rng, 8, 3);
        byte[] parity = new byte[coded.codedLength];
        for (byte[] d : coded.data) {
            for (int i = 0; i < d.length; i++) {
                parity[i] ^= d[i];
            }
        }
        assertArrayEquals(parity, coded.repairs[0]);
        for (int j = 0; j < ReedSolomon.MAX_DATA; j++) {
            assertEquals(1, ReedSolomon.coefficient(0, j));
        }
    }

    @Test
    void shouldKeepEverySquareSubmatrixOfTheCoefficientsNonSingular() {
        SplittableRandom rng = new SplittableRandom(13);
        for (int trial = 0; trial < 3000; trial++) {
            int n = 1 + rng.nextInt(8);
            boolean[] rows = randomSubset(rng, 16, n);
            boolean[] cols = randomSubset(rng, 64, n);
            int[][] m = new int[n][n];
            for (int i = 0, row = 0; i < 16; i++) {
                if (rows[i]) {
                    for (int j = 0, col = 0; j < 64; j++) {
                        if (cols[j]) {
                            m[row][col++] = ReedSolomon.coefficient(i, j);
                        }
                    }
                    row++;
                }
            }
            assertTrue(GfMatrix.invert(m, new int[n][n], n), "a " + n + "x" + n + " submatrix is singular");
        }
    }

    @Test
    void shouldDecodeAPartialBlockWithTheFirstColumnsOfTheSameCode() {
        SplittableRandom rng = new SplittableRandom(17);
        Coded partial = encode(rng, 3, 5);
        boolean[] received = new boolean[8];
        received[1] = true;
        received[6] = true;
        received[7] = true;
        ErasureBlock block = receive(partial, received);
        assertEquals(2, new ReedSolomonDecoder(8, 5, MAX_LENGTH).decode(block));
        assertRebuilt(partial, block, "block of 3 from data 1 and repairs 3, 4");
    }

    @Test
    void shouldCostEkMultiplyAddsToRebuildEErasures() {
        SplittableRandom rng = new SplittableRandom(19);
        ReedSolomonDecoder decoder = new ReedSolomonDecoder(16, 8, MAX_LENGTH);
        for (int e = 0; e <= 8; e++) {
            Coded coded = encode(rng, 16, 8);
            boolean[] received = new boolean[24];
            Arrays.fill(received, e, 24, true);
            decoder.decode(receive(coded, received));
            assertEquals(e * 16L, decoder.lastMultiplyAdds(), e + " erasures: e (k - e) substitutions + e^2 to solve");
        }
    }

    @Test
    void shouldStartTheNextBlockCleanAfterAReset() {
        SplittableRandom rng = new SplittableRandom(23);
        ReedSolomonEncoder reused = new ReedSolomonEncoder(4, 2, MAX_LENGTH);
        byte[] longPayload = new byte[MAX_LENGTH];
        rng.nextBytes(longPayload);
        reused.add(longPayload, 0, longPayload.length);
        reused.reset();
        ReedSolomonEncoder fresh = new ReedSolomonEncoder(4, 2, MAX_LENGTH);
        byte[] small = {1, 2, 3};
        reused.add(small, 0, 3);
        fresh.add(small, 0, 3);
        assertEquals(3, reused.codedLength());
        for (int i = 0; i < 2; i++) {
            assertArrayEquals(fresh.repair(i), reused.repair(i), "repair " + i + " must not keep the old block");
        }
    }

    @Test
    void shouldRefuseMisuse() {
        ReedSolomonEncoder encoder = new ReedSolomonEncoder(1, 1, 10);
        assertThrows(IllegalArgumentException.class, () -> encoder.add(new byte[11], 0, 11));
        encoder.add(new byte[1], 0, 1);
        assertThrows(IllegalStateException.class, () -> encoder.add(new byte[1], 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ReedSolomonEncoder(0, 1, 10));
        assertThrows(IllegalArgumentException.class, () -> new ReedSolomonEncoder(1, ReedSolomon.MAX_REPAIRS + 1, 10));
        ErasureBlock block = new ErasureBlock(4, 2, 10);
        block.reset(2, 5);
        assertThrows(IllegalArgumentException.class, () -> block.length(0, 6));
        block.addRepair(1);
        assertNull(block.addRepair(1), "a repair index is held once");
        block.addRepair(0);
        assertThrows(IllegalStateException.class, () -> block.addRepair(2));
    }
}
