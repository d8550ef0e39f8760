package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GfMatrixTest {
    private static int[][] copy(int[][] m) {
        int[][] c = new int[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }

    @Test
    void shouldInvertRandomNonSingularMatrices() {
        SplittableRandom rng = new SplittableRandom(3);
        int inverted = 0;
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + rng.nextInt(12);
            int[][] a = new int[n][n];
            for (int[] row : a) {
                for (int j = 0; j < n; j++) {
                    row[j] = rng.nextInt(256);
                }
            }
            int[][] original = copy(a);
            int[][] inverse = new int[n][n];
            if (!GfMatrix.invert(a, inverse, n)) {
                continue;
            }
            inverted++;
            int[][] product = new int[n][n];
            GfMatrix.multiply(original, inverse, product, n);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    assertEquals(i == j ? 1 : 0, product[i][j], "A * A^-1 at " + i + "," + j + " (n = " + n + ")");
                }
            }
        }
        assertTrue(inverted > 400, "random matrices over GF(256) are almost always invertible: " + inverted);
    }

    @Test
    void shouldReportSingularMatrices() {
        int[][] twoEqualRows = {{1, 2, 3}, {4, 5, 6}, {1, 2, 3}};
        assertFalse(GfMatrix.invert(twoEqualRows, new int[3][3], 3));
        int[][] dependent = {{1, 2}, {2, Gf256.mul(2, 2)}};
        assertFalse(GfMatrix.invert(dependent, new int[2][2], 2));
        int[][] zero = {{0}};
        assertFalse(GfMatrix.invert(zero, new int[1][1], 1));
    }
}
