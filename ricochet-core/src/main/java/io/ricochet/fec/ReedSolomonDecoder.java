package io.ricochet.fec;

import java.util.Arrays;

/**
 * Rebuilds the erased data packets of an {@link ErasureBlock} from as many of its repairs, as the digital
 * fountain paper describes Reed-Solomon decoding: with {@code e} data packets erased, substitute the {@code k - e}
 * received ones into {@code e} repair equations ({@code e (k - e)} payload multiply-adds), then solve the
 * remaining {@code e x e} system by inverting its matrix ({@code e^2} more). Scratch space is allocated once.
 */
public final class ReedSolomonDecoder {
    private final int maxLength;
    private final int[][] system;
    private final int[][] inverse;
    private final byte[][] reduced;
    private final byte[][] rebuilt;
    private final int[] erased;
    private long lastMultiplyAdds;

    /**
     * @param maxData    most data packets per block
     * @param maxRepairs most repairs per block
     * @param maxLength  longest payload
     */
    public ReedSolomonDecoder(int maxData, int maxRepairs, int maxLength) {
        this.maxLength = maxLength;
        this.system = new int[maxRepairs][maxRepairs];
        this.inverse = new int[maxRepairs][maxRepairs];
        this.reduced = new byte[maxRepairs][];
        this.rebuilt = new byte[maxRepairs][];
        this.erased = new int[maxData];
    }

    /**
     * Rebuilds every erased data position of {@code block}; returns how many, or -1 (touching nothing) when the
     * block holds fewer repairs than erasures.
     */
    public int decode(ErasureBlock block) {
        lastMultiplyAdds = 0;
        int k = block.dataCount();
        int e = 0;
        for (int j = 0; j < k; j++) {
            if (!block.isPresent(j)) {
                erased[e++] = j;
            }
        }
        if (e == 0) {
            return 0;
        }
        if (e > block.repairCount()) {
            return -1;
        }
        int length = block.codedLength();
        for (int t = 0; t < e; t++) {
            substitute(block, t, length);
            for (int u = 0; u < e; u++) {
                system[t][u] = ReedSolomon.coefficient(block.repairIndex(t), erased[u]);
            }
        }
        if (!GfMatrix.invert(system, inverse, e)) {
            throw new IllegalStateException("singular " + e + "x" + e + " system: the code is not MDS");
        }
        for (int u = 0; u < e; u++) {
            byte[] out = scratch(rebuilt, u);
            Arrays.fill(out, 0, length, (byte) 0);
            for (int t = 0; t < e; t++) {
                Gf256.mulAdd(out, 0, reduced[t], 0, length, inverse[u][t]);
            }
            lastMultiplyAdds += e;
            block.rebuilt(erased[u], out);
        }
        return e;
    }

    /** reduced[t] = repair t minus the contribution of every present data packet. */
    private void substitute(ErasureBlock block, int t, int length) {
        byte[] row = scratch(reduced, t);
        System.arraycopy(block.repair(t), 0, row, 0, length);
        int index = block.repairIndex(t);
        for (int j = 0, k = block.dataCount(); j < k; j++) {
            if (block.isPresent(j)) {
                Gf256.mulAdd(row, 0, block.data(j), block.offset(j), block.length(j),
                        ReedSolomon.coefficient(index, j));
                lastMultiplyAdds++;
            }
        }
    }

    private byte[] scratch(byte[][] rows, int i) {
        if (rows[i] == null) {
            rows[i] = new byte[maxLength];
        }
        return rows[i];
    }

    /** Payload multiply-adds the last {@link #decode} did: {@code e (k - e) + e^2 = e k} for {@code e} erasures. */
    public long lastMultiplyAdds() {
        return lastMultiplyAdds;
    }
}
