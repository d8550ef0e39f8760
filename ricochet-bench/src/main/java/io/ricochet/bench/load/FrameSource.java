package io.ricochet.bench.load;

import io.ricochet.daemon.BundleFormat;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.Arrays;

/**
 * The load generator's data: DATA frames of one origin, round-robin over its groups ({@code run} frames to a group
 * before the next group's turn), each group with its own seqnos from 0, a fixed payload in a daemon's format (one
 * message: {@link BundleFormat#SINGLE}, then the message), written straight into the {@link RetransmitRing} slot
 * they are sent from.
 * Pure (no I/O), allocates nothing per frame. Not thread-safe.
 */
public final class FrameSource {
    private final int self;
    private final int[] groups;
    private final byte[] payload;
    private final RetransmitRing ring;
    private final long[] nextSeqno;
    private final int run;
    private final DataFlyweight data = new DataFlyweight();
    private int nextGroup;
    private int leftInRun;
    private int lastGroup = -1;
    private long framesWritten;

    /**
     * @param self         this node's id: source and origin of every frame
     * @param groups       the groups, in round-robin order (ring group {@code i} is {@code groups[i]})
     * @param payloadBytes the payload of every frame, the kind byte included (at least 1)
     * @param ring         where the frames are written; its slots must hold a frame of that payload
     */
    public FrameSource(int self, int[] groups, int payloadBytes, RetransmitRing ring) {
        this(self, groups, payloadBytes, ring, 1);
    }

    /**
     * As {@link #FrameSource(int, int[], int, RetransmitRing)}, with {@code run} consecutive frames to each group
     * in its turn (at least 1).
     */
    public FrameSource(int self, int[] groups, int payloadBytes, RetransmitRing ring, int run) {
        if (groups.length == 0) {
            throw new IllegalArgumentException("no groups to send to");
        }
        if (payloadBytes < 1 || payloadBytes > DataFlyweight.MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload = " + payloadBytes + ": must be in 1.."
                    + DataFlyweight.MAX_PAYLOAD);
        }
        if (run < 1) {
            throw new IllegalArgumentException("run = " + run + ": must be 1 or more");
        }
        this.run = run;
        this.leftInRun = run;
        this.self = self;
        this.groups = groups.clone();
        this.payload = new byte[payloadBytes];
        for (int i = 0; i < payloadBytes; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        payload[0] = BundleFormat.SINGLE;
        this.ring = ring;
        this.nextSeqno = new long[groups.length];
    }

    /** Writes the next frame (the group in turn, its next seqno) into its ring slot and returns the slot. */
    public int next() {
        int index = nextGroup;
        if (--leftInRun == 0) {
            nextGroup = (nextGroup + 1) % groups.length;
            leftInRun = run;
        }
        long seqno = nextSeqno[index]++;
        int slot = ring.claim(index, seqno);
        int length = data.wrap(ring.frame(slot), 0).write(FrameType.DATA, self, self, groups[index], seqno,
                payload, 0, payload.length);
        ring.length(slot, length);
        lastGroup = index;
        framesWritten++;
        return slot;
    }

    /** The group index of the frame {@link #next()} last wrote, or -1 before the first. */
    public int lastGroupIndex() {
        return lastGroup;
    }

    /** The highest seqno written in group index {@code groupIndex}, or -1 if none yet. */
    public long highestSeqno(int groupIndex) {
        return nextSeqno[groupIndex] - 1;
    }

    /** Frames written so far, over all groups. */
    public long framesWritten() {
        return framesWritten;
    }

    /** The groups in round-robin order. */
    public int[] groups() {
        return Arrays.copyOf(groups, groups.length);
    }
}
