package io.ricochet.fountain;

import io.ricochet.wire.Bytes;
import java.util.Arrays;

/**
 * Inactivation decoding of the symbols a stalled {@link LtDecoder} holds (Shokrollahi's Raptor codes, IEEE Trans.
 * Inf. Theory 2006, and RFC 6330 section 5.4 use the same idea): peeling stops when no stored symbol has one unknown
 * left, long before the symbols run out of information (the ripple of an LT code stays near empty until an avalanche
 * at the end). Here, when it stops, one unknown of a sparsest stored symbol is declared "inactive" (left as a
 * variable) and peeling goes on; every source symbol it then finds is a known payload XOR a combination of inactive
 * variables. The stored symbols left over give equations in the inactive variables alone: a small dense system,
 * solved by Gaussian elimination over GF(2). At about k symbols it usually has full rank, where peeling alone
 * needs some 5 % more and sometimes 10 %.
 *
 * <p>An attempt first works on bits alone (the structure and the dense system's rank), so one that fails costs no
 * payload work and changes nothing; only a full-rank attempt computes the payloads. Allocates per attempt, never
 * per symbol. Not thread-safe; used by its decoder only.
 */
final class Inactivation {
    private final int k;
    private final int symbolSize;
    private final SymbolDraw draw;

    // Per attempt: the stored symbols ("rows") and their unknown source symbols ("columns") in CSR form.
    private int rows;
    private int[] rowStart;
    private int[] rowCols;
    private int[] colStart;
    private int[] colRows;
    private int[] rowDegree;
    private boolean[] rowUsed;
    /** Per column: 0 unresolved, 1 peeled, 2 inactive. */
    private byte[] colState;
    private int[] inactiveIndex;
    private int[] inactiveCol;
    private int inactive;
    /** Peeled columns in order, each with the row that gave it. */
    private int[] peeledCol;
    private int[] peeledRow;
    private int peeled;
    // The dense part: vectors of peeled columns, equations, right-hand sides. Grown, never shrunk: an attempt
    // allocates only when it needs more than any attempt before.
    private int words;
    private long[] vectors = new long[0];
    private final int[] vectorAt;
    private long[] lhs = new long[0];
    private int[] eqRow = new int[0];
    private byte[] rhs = new byte[0];
    private int[] pivotOf = new int[0];
    private int[] ready = new int[0];

    Inactivation(int k, int symbolSize, SymbolDraw draw) {
        this.k = k;
        this.symbolSize = symbolSize;
        this.draw = draw;
        this.vectorAt = new int[k];
        this.rowStart = new int[1];
        this.rowCols = new int[1024];
        this.colStart = new int[k + 1];
        this.colRows = new int[0];
        this.rowDegree = new int[0];
        this.rowUsed = new boolean[0];
        this.colState = new byte[k];
        this.inactiveIndex = new int[k];
        this.inactiveCol = new int[16];
        this.peeledCol = new int[k];
        this.peeledRow = new int[k];
    }

    private static int[] grow(int[] a, int n) {
        return a.length >= n ? a : new int[Math.max(n, a.length * 2)];
    }

    private static long[] grow(long[] a, int n) {
        return a.length >= n ? a : new long[Math.max(n, a.length * 2)];
    }

    private static byte[] grow(byte[] a, int n) {
        return a.length >= n ? a : new byte[Math.max(n, a.length * 2)];
    }

    /**
     * Tries to finish decoding from the stored symbols {@code slots[0 .. count)} (their ids in {@code slotIds},
     * residual payloads at {@code pool[slot * symbolSize]}: each already XOR-ed with its known source symbols).
     * On success writes every unknown source symbol into {@code source}, marks it in {@code known} and returns true;
     * otherwise changes nothing the decoder relies on (it may scribble on unknown source symbols' bytes) and returns
     * false.
     */
    boolean solve(int[] slots, int count, long[] slotIds, byte[] pool, byte[] source, boolean[] known) {
        build(slots, count, slotIds, known);
        peelWithInactivation();
        words = Math.max(1, (inactive + 63) >>> 6);
        // Each peeled column's combination of inactive variables, in peel order (vectorAt maps column -> position).
        vectors = grow(vectors, peeled * words);
        Arrays.fill(vectors, 0, peeled * words, 0L);
        for (int i = 0; i < peeled; i++) {
            int col = peeledCol[i];
            vectorAt[col] = i * words;
            int row = peeledRow[i];
            for (int e = rowStart[row]; e < rowStart[row + 1]; e++) {
                addTerm(vectors, i * words, rowCols[e], col);
            }
        }
        // The equations: every row not used to peel, over the inactive variables.
        int m = equations();
        if (!eliminate(m, null, 0)) {
            return false;
        }
        // Full rank: the payloads. Peeled columns first with the inactive variables taken as zero, then the
        // equations' right-hand sides, eliminated the same way, give the inactive values, then back-substitution.
        int size = symbolSize;
        for (int i = 0; i < peeled; i++) {
            int col = peeledCol[i];
            int row = peeledRow[i];
            System.arraycopy(pool, slots[row] * size, source, col * size, size);
            for (int e = rowStart[row]; e < rowStart[row + 1]; e++) {
                int other = rowCols[e];
                if (other != col && colState[other] == 1) {
                    Bytes.xorInto(source, col * size, source, other * size, size);
                }
            }
        }
        rhs = grow(rhs, Math.multiplyExact(m, size));
        for (int q = 0; q < m; q++) {
            int r = eqRow[q];
            System.arraycopy(pool, slots[r] * size, rhs, q * size, size);
            for (int e = rowStart[r]; e < rowStart[r + 1]; e++) {
                int other = rowCols[e];
                if (colState[other] == 1) {
                    Bytes.xorInto(rhs, q * size, source, other * size, size);
                }
            }
        }
        equations();
        eliminate(m, rhs, size);
        for (int i = 0; i < inactive; i++) {
            System.arraycopy(rhs, pivotOf[i] * size, source, inactiveCol[i] * size, size);
        }
        for (int i = 0; i < peeled; i++) {
            int col = peeledCol[i];
            for (int w = 0; w < words; w++) {
                for (long bits = vectors[i * words + w]; bits != 0; bits &= bits - 1) {
                    int var = (w << 6) + Long.numberOfTrailingZeros(bits);
                    Bytes.xorInto(source, col * size, source, inactiveCol[var] * size, size);
                }
            }
        }
        for (int col = 0; col < k; col++) {
            known[col] = true;
        }
        return true;
    }

    /**
     * The rows not used to peel, as equations over the inactive variables: their bits into {@code lhs} (row q at
     * {@code q * words}), their rows into {@code eqRow}; returns how many.
     */
    private int equations() {
        int m = rows - peeled;
        lhs = grow(lhs, m * words);
        Arrays.fill(lhs, 0, m * words, 0L);
        eqRow = grow(eqRow, m);
        int q = 0;
        for (int r = 0; r < rows; r++) {
            if (!rowUsed[r]) {
                for (int e = rowStart[r]; e < rowStart[r + 1]; e++) {
                    addTerm(lhs, q * words, rowCols[e], -1);
                }
                eqRow[q++] = r;
            }
        }
        return q;
    }

    /** Adds column {@code col}'s term to the vector at {@code v[at]}, unless it is {@code self}. */
    private void addTerm(long[] v, int at, int col, int self) {
        if (col == self) {
            return;
        }
        if (colState[col] == 2) {
            int var = inactiveIndex[col];
            v[at + (var >>> 6)] ^= 1L << var;
        } else {
            int from = vectorAt[col];
            for (int w = 0; w < words; w++) {
                v[at + w] ^= vectors[from + w];
            }
        }
    }

    /**
     * Gauss-Jordan elimination of the {@code m} equations in {@code lhs} over GF(2), the right-hand sides ({@code
     * size} bytes each in {@code rhs}, or none) following; sets {@code pivotOf} (each variable's equation) and
     * returns true, or false if the rank is short.
     */
    private boolean eliminate(int m, byte[] rhs, int size) {
        pivotOf = grow(pivotOf, inactive);
        int next = 0;
        for (int var = 0; var < inactive; var++) {
            int w = var >>> 6;
            long bit = 1L << var;
            int p = -1;
            for (int q = next; q < m; q++) {
                if ((lhs[q * words + w] & bit) != 0) {
                    p = q;
                    break;
                }
            }
            if (p < 0) {
                return false;
            }
            if (p != next) {
                for (int x = 0; x < words; x++) {
                    long t = lhs[p * words + x];
                    lhs[p * words + x] = lhs[next * words + x];
                    lhs[next * words + x] = t;
                }
                if (rhs != null) {
                    swap(rhs, p * size, next * size, size);
                }
            }
            int pivot = next * words;
            for (int q = 0; q < m; q++) {
                if (q != next && (lhs[q * words + w] & bit) != 0) {
                    for (int x = 0; x < words; x++) {
                        lhs[q * words + x] ^= lhs[pivot + x];
                    }
                    if (rhs != null) {
                        Bytes.xorInto(rhs, q * size, rhs, next * size, size);
                    }
                }
            }
            pivotOf[var] = next++;
        }
        return true;
    }

    private static void swap(byte[] b, int i, int j, int size) {
        for (int x = 0; x < size; x++) {
            byte t = b[i + x];
            b[i + x] = b[j + x];
            b[j + x] = t;
        }
    }

    private void build(int[] slots, int count, long[] slotIds, boolean[] known) {
        rows = count;
        rowStart = grow(rowStart, count + 1);
        rowStart[0] = 0;
        int n = 0;
        for (int r = 0; r < count; r++) {
            int d = draw.draw(slotIds[slots[r]]);
            int[] neighbours = draw.neighbours();
            for (int i = 0; i < d; i++) {
                if (!known[neighbours[i]]) {
                    if (n == rowCols.length) {
                        rowCols = Arrays.copyOf(rowCols, n * 2);
                    }
                    rowCols[n++] = neighbours[i];
                }
            }
            rowStart[r + 1] = n;
        }
        // Columns' rows, counting sort by column.
        Arrays.fill(colStart, 0);
        for (int e = 0; e < n; e++) {
            colStart[rowCols[e] + 1]++;
        }
        for (int c = 0; c < k; c++) {
            colStart[c + 1] += colStart[c];
        }
        colRows = grow(colRows, n);
        int[] fill = vectorAt; // scratch until the vectors are laid out
        System.arraycopy(colStart, 0, fill, 0, k);
        for (int r = 0; r < count; r++) {
            for (int e = rowStart[r]; e < rowStart[r + 1]; e++) {
                colRows[fill[rowCols[e]]++] = r;
            }
        }
        rowDegree = grow(rowDegree, count);
        for (int r = 0; r < count; r++) {
            rowDegree[r] = rowStart[r + 1] - rowStart[r];
        }
        if (rowUsed.length < count) {
            rowUsed = new boolean[Math.max(count, rowUsed.length * 2)];
        }
        Arrays.fill(rowUsed, 0, count, false);
        for (int c = 0; c < k; c++) {
            colState[c] = known[c] ? (byte) 1 : 0; // known before the attempt: in no row
        }
        inactive = 0;
        peeled = 0;
    }

    /**
     * Peels, inactivating a column of a sparsest unused row whenever no row has one unresolved column left. The
     * rows with one unresolved column wait on a stack: a row's count only falls, so it enters at most once.
     */
    private void peelWithInactivation() {
        ready = grow(ready, rows);
        int top = 0;
        for (int r = 0; r < rows; r++) {
            if (rowDegree[r] == 1) {
                ready[top++] = r;
            }
        }
        while (true) {
            while (top > 0) {
                int r = ready[--top];
                if (rowUsed[r] || rowDegree[r] != 1) {
                    continue; // its last column was resolved by another row meanwhile: it is an equation now
                }
                int col = unresolvedIn(r);
                rowUsed[r] = true;
                colState[col] = 1;
                peeledCol[peeled] = col;
                peeledRow[peeled++] = r;
                top = resolve(col, ready, top);
            }
            int sparsest = -1;
            for (int r = 0; r < rows; r++) {
                if (!rowUsed[r] && rowDegree[r] > 1 && (sparsest < 0 || rowDegree[r] < rowDegree[sparsest])) {
                    sparsest = r;
                }
            }
            int col = sparsest >= 0 ? unresolvedIn(sparsest) : anyUnresolved();
            if (col < 0) {
                return;
            }
            if (inactive == inactiveCol.length) {
                inactiveCol = Arrays.copyOf(inactiveCol, inactive * 2);
            }
            colState[col] = 2;
            inactiveIndex[col] = inactive;
            inactiveCol[inactive++] = col;
            top = resolve(col, ready, top);
        }
    }

    /** Marks {@code col} resolved in every unused row; rows left with one unresolved column go on the stack. */
    private int resolve(int col, int[] ready, int top) {
        for (int e = colStart[col]; e < colStart[col + 1]; e++) {
            int r = colRows[e];
            if (!rowUsed[r] && --rowDegree[r] == 1) {
                ready[top++] = r;
            }
        }
        return top;
    }

    private int unresolvedIn(int r) {
        for (int e = rowStart[r]; e < rowStart[r + 1]; e++) {
            if (colState[rowCols[e]] == 0) {
                return rowCols[e];
            }
        }
        throw new IllegalStateException("row " + r + " has no unresolved column");
    }

    private int anyUnresolved() {
        for (int c = 0; c < k; c++) {
            if (colState[c] == 0) {
                return c;
            }
        }
        return -1;
    }
}
