package io.ricochet.fec;

/**
 * Square matrices over {@link Gf256}, stored as {@code int[row][column]} with entries 0..255: just what the
 * decoder needs, a product and an inverse by Gauss-Jordan elimination.
 */
public final class GfMatrix {
    private GfMatrix() {
    }

    /**
     * Writes the inverse of the top-left {@code n x n} block of {@code a} into {@code inverse}, destroying
     * {@code a}. Returns false, leaving both undefined, if the block is singular.
     */
    public static boolean invert(int[][] a, int[][] inverse, int n) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                inverse[i][j] = i == j ? 1 : 0;
            }
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            while (pivot < n && a[pivot][col] == 0) {
                pivot++;
            }
            if (pivot == n) {
                return false;
            }
            swap(a, col, pivot);
            swap(inverse, col, pivot);
            int scale = Gf256.inv(a[col][col]);
            scaleRow(a[col], n, scale);
            scaleRow(inverse[col], n, scale);
            for (int row = 0; row < n; row++) {
                int factor = a[row][col];
                if (row != col && factor != 0) {
                    subtractRow(a[row], a[col], n, factor);
                    subtractRow(inverse[row], inverse[col], n, factor);
                }
            }
        }
        return true;
    }

    /** {@code out = a * b} for the top-left {@code n x n} blocks; {@code out} must be neither input. */
    public static void multiply(int[][] a, int[][] b, int[][] out, int n) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int sum = 0;
                for (int k = 0; k < n; k++) {
                    sum ^= Gf256.mul(a[i][k], b[k][j]);
                }
                out[i][j] = sum;
            }
        }
    }

    private static void swap(int[][] m, int i, int j) {
        int[] row = m[i];
        m[i] = m[j];
        m[j] = row;
    }

    private static void scaleRow(int[] row, int n, int scale) {
        for (int j = 0; j < n; j++) {
            row[j] = Gf256.mul(row[j], scale);
        }
    }

    /** {@code row -= factor * pivotRow} (subtraction is addition in characteristic 2). */
    private static void subtractRow(int[] row, int[] pivotRow, int n, int factor) {
        for (int j = 0; j < n; j++) {
            row[j] ^= Gf256.mul(factor, pivotRow[j]);
        }
    }
}
