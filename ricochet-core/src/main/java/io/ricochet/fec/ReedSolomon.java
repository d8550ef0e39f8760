package io.ricochet.fec;

/**
 * The systematic Reed-Solomon erasure code over {@link Gf256} that sender-based FEC uses: a block of {@code k}
 * data packets is sent as is, followed by repair packets where repair {@code i} is
 * {@code sum_j coefficient(i, j) * data_j} (each payload zero-padded to the block's longest). Any {@code k} of the
 * {@code k + c} packets rebuild the block.
 *
 * <h2>The matrix</h2>
 * The coefficients form a Cauchy matrix with its columns scaled so that row 0 is all ones:
 * <pre>
 *   coefficient(i, j) = (x_0 + y_j) / (x_i + y_j),   x_i = {@value #MAX_DATA} + i,   y_j = j
 * </pre>
 * <ul>
 *   <li><b>MDS.</b> Every square submatrix of a Cauchy matrix {@code 1 / (x_i + y_j)} (distinct x's and y's, none
 *       equal) is non-singular, and scaling columns keeps that. So for any set of {@code e} erased data packets
 *       and any {@code e} received repairs, the {@code e x e} system the decoder solves is non-singular.</li>
 *   <li><b>Repair 0 is XOR parity.</b> With {@code c = 1} the code is exactly the plain XOR of the block, and for
 *       any {@code c} the first repair is cheap to build.</li>
 *   <li><b>No dependence on k or c.</b> Field points are fixed per data position and repair index, so a block
 *       closed early with {@code k < r} packets (the flush of a partial block) uses the first {@code k} columns of
 *       the same matrix; a sender can accumulate repairs before it knows how large the block will be.</li>
 * </ul>
 */
public final class ReedSolomon {
    /** Most data packets in one block (field points 0..127). */
    public static final int MAX_DATA = 128;
    /** Most repair packets for one block (field points 128..255). */
    public static final int MAX_REPAIRS = 128;

    private static final int[][] COEFFICIENTS = new int[MAX_REPAIRS][MAX_DATA];

    static {
        for (int i = 0; i < MAX_REPAIRS; i++) {
            for (int j = 0; j < MAX_DATA; j++) {
                COEFFICIENTS[i][j] = Gf256.div(MAX_DATA ^ j, (MAX_DATA + i) ^ j);
            }
        }
    }

    private ReedSolomon() {
    }

    /** The weight of data packet {@code data} in repair {@code repair}; never 0, and 1 for repair 0. */
    public static int coefficient(int repair, int data) {
        return COEFFICIENTS[repair][data];
    }
}
