package io.ricochet.fec;

import java.util.Arrays;

/**
 * Builds the repairs of one block incrementally: each data packet is multiplied into every repair as it is added
 * (as a LEC repair bin XORs packets in), so closing the block costs nothing more and no data packet is kept.
 * Reusable: {@link #reset()} starts the next block without allocating.
 *
 * <p>Repair buffers hold {@link #codedLength()} valid bytes, the longest payload added; shorter payloads count as
 * zero-padded. Bytes past the coded length are kept zero, so a longer payload can be added at any time.
 */
public final class ReedSolomonEncoder {
    private final int maxData;
    private final int maxLength;
    private final byte[][] repairs;
    private final int[] lengths;
    private int count;
    private int codedLength;

    /**
     * @param maxData     most data packets per block ({@code <=} {@link ReedSolomon#MAX_DATA})
     * @param repairCount repairs built per block, {@code c} ({@code <=} {@link ReedSolomon#MAX_REPAIRS})
     * @param maxLength   longest payload
     */
    public ReedSolomonEncoder(int maxData, int repairCount, int maxLength) {
        if (maxData < 1 || maxData > ReedSolomon.MAX_DATA) {
            throw new IllegalArgumentException("maxData " + maxData + " not in 1.." + ReedSolomon.MAX_DATA);
        }
        if (repairCount < 1 || repairCount > ReedSolomon.MAX_REPAIRS) {
            throw new IllegalArgumentException("repairCount " + repairCount + " not in 1.." + ReedSolomon.MAX_REPAIRS);
        }
        this.maxData = maxData;
        this.maxLength = maxLength;
        this.repairs = new byte[repairCount][maxLength];
        this.lengths = new int[maxData];
    }

    /** Multiplies one data packet into every repair; returns its position in the block. */
    public int add(byte[] payload, int offset, int length) {
        if (count == maxData) {
            throw new IllegalStateException("block already holds " + maxData + " packets");
        }
        if (length < 0 || length > maxLength) {
            throw new IllegalArgumentException("payload of " + length + " bytes; the maximum is " + maxLength);
        }
        int position = count++;
        for (int i = 0; i < repairs.length; i++) {
            Gf256.mulAdd(repairs[i], 0, payload, offset, length, ReedSolomon.coefficient(i, position));
        }
        lengths[position] = length;
        codedLength = Math.max(codedLength, length);
        return position;
    }

    /** Empties the block: repairs back to zero over the bytes used. */
    public void reset() {
        for (byte[] repair : repairs) {
            Arrays.fill(repair, 0, codedLength, (byte) 0);
        }
        count = 0;
        codedLength = 0;
    }

    /** Data packets added since the last reset. */
    public int count() {
        return count;
    }

    public boolean isFull() {
        return count == maxData;
    }

    public int repairCount() {
        return repairs.length;
    }

    /** Length of data packet {@code position} of the block. */
    public int length(int position) {
        return lengths[position];
    }

    /** Longest payload of the block: the valid length of every repair. */
    public int codedLength() {
        return codedLength;
    }

    /** Repair {@code index}'s buffer; its first {@link #codedLength()} bytes are the repair. */
    public byte[] repair(int index) {
        return repairs[index];
    }
}
