package io.ricochet.engine;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.HashMap;
import java.util.Map;

/**
 * The part of {@code send} every protocol shares: check the call, give the packet the group's next sequence
 * number (from 0, continuing if this process leaves and rejoins: it is one incarnation), write the DATA frame,
 * count it and multicast it. What a protocol keeps of its own packets (retransmit buffer, FEC block, gossip
 * buffer, session state) it does after, with the returned seqno.
 */
public final class DataSender {
    private final int self;
    private final int maxPayload;
    private final Counters counters;
    private final Outbox outbox;
    private final Map<Integer, long[]> nextSeqno = new HashMap<>();
    private final byte[] frame;
    private final DataFlyweight out;

    public DataSender(int self, int maxPayload, Counters counters, Outbox outbox) {
        this.self = self;
        this.maxPayload = maxPayload;
        this.frame = new byte[DataFlyweight.dataFrameLength(maxPayload)];
        this.out = new DataFlyweight().wrap(frame, 0);
        this.counters = counters;
        this.outbox = outbox;
    }

    /**
     * Multicasts {@code payload} to {@code group} as this node's next packet there.
     *
     * @param member whether this node is a member of {@code group} (the protocol's own view says)
     * @return the packet's sequence number
     * @throws IllegalStateException    if this node is not a member of the group
     * @throws IllegalArgumentException if the payload is longer than the protocol's maximum
     */
    public long send(boolean member, int group, byte[] payload, int offset, int length) {
        if (!member) {
            throw new IllegalStateException("node " + self + " is not a member of group " + group);
        }
        if (length < 0 || length > maxPayload) {
            throw new IllegalArgumentException("payload of " + length + " bytes; the maximum is " + maxPayload);
        }
        long seqno = nextSeqno.computeIfAbsent(group, g -> new long[1])[0]++;
        int frameLength = out.write(FrameType.DATA, self, self, group, seqno, payload, offset, length);
        counters.increment(EngineCounter.DATA_SENT);
        outbox.multicast(group, frame, 0, frameLength);
        return seqno;
    }

    /** Packets this node has sent to {@code group}. */
    public long sentTo(int group) {
        long[] next = nextSeqno.get(group);
        return next == null ? 0 : next[0];
    }
}
