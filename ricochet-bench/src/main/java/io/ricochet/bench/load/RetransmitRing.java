package io.ricochet.bench.load;

import java.util.Arrays;

/**
 * The load generator's bounded memory of what it sent, to answer NAKs: for each of its groups a ring of the last
 * {@code perGroup} frames, the frame of seqno {@code s} in slot {@code s mod perGroup}. The sender writes each
 * frame straight into its slot ({@link #claim}) and sends it from there, so keeping it costs no copy. A NAK for a
 * seqno that has been overwritten, or was never sent, finds nothing ({@link #find} returns -1): answer GONE.
 * Allocates only when built. Not thread-safe.
 */
public final class RetransmitRing {
    private final int perGroup;
    private final byte[][] frames;
    private final int[] lengths;
    private final long[] seqnos;

    /**
     * @param groups    how many groups (indexed 0 .. groups - 1)
     * @param perGroup  frames kept per group
     * @param slotBytes the longest frame
     */
    public RetransmitRing(int groups, int perGroup, int slotBytes) {
        if (groups < 1 || perGroup < 1 || slotBytes < 1) {
            throw new IllegalArgumentException("groups, frames per group and slot size must be 1 or more");
        }
        if ((long) groups * perGroup * slotBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a ring of " + groups + " x " + perGroup + " frames of "
                    + slotBytes + " bytes is too large");
        }
        this.perGroup = perGroup;
        this.frames = new byte[groups * perGroup][slotBytes];
        this.lengths = new int[groups * perGroup];
        this.seqnos = new long[groups * perGroup];
        Arrays.fill(seqnos, -1);
    }

    /**
     * Takes the slot of {@code seqno} in group {@code groupIndex} for a new frame, evicting the one it held. Write
     * the frame into {@link #frame(int)} and record its length with {@link #length(int, int)}.
     *
     * @return the slot
     */
    public int claim(int groupIndex, long seqno) {
        if (seqno < 0) {
            throw new IllegalArgumentException("seqno " + seqno + " is negative");
        }
        int slot = slot(groupIndex, seqno);
        seqnos[slot] = seqno;
        lengths[slot] = 0;
        return slot;
    }

    /** The slot still holding {@code seqno} of group {@code groupIndex}, or -1 if it is gone or was never sent. */
    public int find(int groupIndex, long seqno) {
        if (groupIndex < 0 || groupIndex >= frames.length / perGroup || seqno < 0) {
            return -1;
        }
        int slot = slot(groupIndex, seqno);
        return seqnos[slot] == seqno && lengths[slot] > 0 ? slot : -1;
    }

    /** The bytes of slot {@code slot}; the frame starts at index 0. */
    public byte[] frame(int slot) {
        return frames[slot];
    }

    public int length(int slot) {
        return lengths[slot];
    }

    /** Records the length of the frame just written into {@code slot}. */
    public void length(int slot, int length) {
        if (length < 1 || length > frames[slot].length) {
            throw new IllegalArgumentException("frame length " + length + " is not in 1.." + frames[slot].length);
        }
        lengths[slot] = length;
    }

    /** Frames kept per group. */
    public int perGroup() {
        return perGroup;
    }

    private int slot(int groupIndex, long seqno) {
        return groupIndex * perGroup + (int) (seqno % perGroup);
    }
}
