package io.ricochet.fec;

/**
 * One block as a receiver holds it, input and output of {@link ReedSolomonDecoder}: {@code k} data positions,
 * each with its length and either a payload (present) or nothing (erased), and the repairs received so far.
 * Reused across blocks; repair buffers are allocated on first use and kept.
 *
 * <p>A present payload is read only over its length: bytes past it count as zero padding, so a buffer reused
 * from a cache with stale bytes at its end is fine. After a successful decode, {@link #data(int)} of an erased
 * position is the rebuilt payload (cut it to {@link #length(int)}); it lives in the decoder's scratch space and
 * stays valid until that decoder's next call.
 */
public final class ErasureBlock {
    private final int maxLength;
    private final byte[][] data;
    private final int[] offsets;
    private final int[] lengths;
    private final boolean[] present;
    private final byte[][] repairs;
    private final int[] repairIndexes;
    private int dataCount;
    private int codedLength;
    private int repairCount;

    public ErasureBlock(int maxData, int maxRepairs, int maxLength) {
        this.maxLength = maxLength;
        this.data = new byte[maxData][];
        this.offsets = new int[maxData];
        this.lengths = new int[maxData];
        this.present = new boolean[maxData];
        this.repairs = new byte[maxRepairs][];
        this.repairIndexes = new int[maxRepairs];
    }

    /** Starts a block of {@code dataCount} packets, all erased, padded to {@code codedLength}; drops repairs. */
    public void reset(int dataCount, int codedLength) {
        if (dataCount < 1 || dataCount > data.length || codedLength < 0 || codedLength > maxLength) {
            throw new IllegalArgumentException("block of " + dataCount + " packets, " + codedLength + " bytes");
        }
        this.dataCount = dataCount;
        this.codedLength = codedLength;
        this.repairCount = 0;
        for (int j = 0; j < dataCount; j++) {
            erase(j);
        }
    }

    /** Sets the length of data packet {@code position} (at most the coded length). */
    public void length(int position, int length) {
        if (length < 0 || length > codedLength) {
            throw new IllegalArgumentException("length " + length + " > coded length " + codedLength);
        }
        lengths[position] = length;
    }

    /** Data packet {@code position} is here: {@code payload[offset, offset + length(position))}. */
    public void present(int position, byte[] payload, int offset) {
        data[position] = payload;
        offsets[position] = offset;
        present[position] = true;
    }

    /** Data packet {@code position} is missing. */
    public void erase(int position) {
        data[position] = null;
        present[position] = false;
    }

    /**
     * Adds repair {@code index} and returns the buffer its {@link #codedLength()} bytes go into. A repair index
     * already held is not added twice: the call returns null.
     */
    public byte[] addRepair(int index) {
        if (index < 0 || index >= ReedSolomon.MAX_REPAIRS) {
            throw new IllegalArgumentException("repair index " + index);
        }
        if (hasRepair(index)) {
            return null;
        }
        if (repairCount == repairs.length) {
            throw new IllegalStateException("block already holds " + repairCount + " repairs");
        }
        if (repairs[repairCount] == null) {
            repairs[repairCount] = new byte[maxLength];
        }
        repairIndexes[repairCount] = index;
        return repairs[repairCount++];
    }

    public boolean hasRepair(int index) {
        for (int t = 0; t < repairCount; t++) {
            if (repairIndexes[t] == index) {
                return true;
            }
        }
        return false;
    }

    /** Erased data positions. */
    public int erasures() {
        int erased = 0;
        for (int j = 0; j < dataCount; j++) {
            if (!present[j]) {
                erased++;
            }
        }
        return erased;
    }

    public int dataCount() {
        return dataCount;
    }

    public int codedLength() {
        return codedLength;
    }

    public int length(int position) {
        return lengths[position];
    }

    public boolean isPresent(int position) {
        return present[position];
    }

    /** The payload of a present position, or the rebuilt one of an erased position after a decode, else null. */
    public byte[] data(int position) {
        return data[position];
    }

    /** Where the payload of {@code position} starts in its {@link #data} array (0 for a rebuilt one). */
    public int offset(int position) {
        return offsets[position];
    }

    public int repairCount() {
        return repairCount;
    }

    /** The index (0..c-1) of the {@code t}-th repair held. */
    public int repairIndex(int t) {
        return repairIndexes[t];
    }

    /** The {@code t}-th repair held. */
    public byte[] repair(int t) {
        return repairs[t];
    }

    /** Called by the decoder: the rebuilt payload of an erased position. */
    void rebuilt(int position, byte[] payload) {
        data[position] = payload;
        offsets[position] = 0;
    }
}
