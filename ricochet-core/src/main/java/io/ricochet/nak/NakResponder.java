package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.TokenBucket;
import io.ricochet.fountain.backup.FountainSender;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;

/**
 * The sender's half of the NAK layer (paper, section 4.2.7): a bounded retransmit buffer of this node's own data
 * packets, and the answer to a NAK, a RETRANSMIT by unicast if the packet is still buffered, GONE if it is not.
 * The buffer is sized by time within its memory bound: a packet is meant to be kept for {@code retentionNs} (as long
 * as a receiver may ask for it), and {@link #readyAtNs} says when the next send no longer evicts one kept less.
 * Answers are paced per requester (a token bucket each, for at most {@link #MAX_REQUESTERS} requesters), and a NAK is
 * padded to a third of the largest frame, so no answer is more than three times the bytes of the NAK that bought it
 * (docs/design/security.md, "Amplification").
 */
public final class NakResponder {
    /** Requesters whose answer rate is tracked at once; the least recently heard one is forgotten beyond. */
    public static final int MAX_REQUESTERS = 4096;

    private final int self;
    private final boolean buffering;
    private final Counters counters;
    private final Outbox outbox;
    private final PacketStore retransmitBuffer;
    private final long retentionNs;
    private final long[] sentNs;
    private Stability stability;
    /**
     * Packets of a group sent beyond some member's reported progress, at most, before a send there waits
     * ({@link #readyAtNs(int, long)}); 0 = no window.
     */
    private int window;
    /** Per group, a lower bound of {@link Stability#progressBelow}: recomputed only when the window looks full. */
    private final org.agrona.collections.Int2ObjectHashMap<long[]> progressFloor =
            new org.agrona.collections.Int2ObjectHashMap<>();
    private FountainSender fountain;
    private final int perRequester;
    private final java.util.LinkedHashMap<Integer, TokenBucket> requesters =
            new java.util.LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<Integer, TokenBucket> eldest) {
                    return size() > MAX_REQUESTERS;
                }
            };
    /** Per group, the next seqno this node will send there (its sender's count): a NAK at or above it names nothing. */
    private final java.util.function.IntToLongFunction nextSeqno;
    private final byte[] frame;
    private final DataFlyweight data;
    private final PacketRefFlyweight ref;

    /**
     * @param self       this node's id
     * @param capacity   sent payloads kept at most (FIFO eviction, counted as RETRANSMIT_BUFFER_EVICTIONS)
     * @param retentionNs how long a sent payload is meant to be kept: at least the receivers' NAK give-up time
     * @param perRequester answers (RETRANSMIT or GONE) per second to one requester at most; 0 = no limit
     * @param maxPayload largest payload
     * @param buffering  whether sent packets are kept at all (a protocol that never NAKs needs none)
     * @param nextSeqno  per group, the next seqno this node will send there ({@code DataSender::sentTo})
     * @param counters   where NAKs, answers and evictions are counted
     * @param outbox     where answers go
     */
    public NakResponder(int self, int capacity, long retentionNs, int perRequester, int maxPayload, boolean buffering,
                        java.util.function.IntToLongFunction nextSeqno, Counters counters, Outbox outbox) {
        this.self = self;
        this.nextSeqno = nextSeqno;
        this.buffering = buffering;
        this.counters = counters;
        this.outbox = outbox;
        this.retransmitBuffer = new PacketStore(capacity, maxPayload, counters,
                EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
        this.retentionNs = retentionNs;
        this.perRequester = perRequester;
        this.sentNs = new long[buffering ? capacity : 0];
        this.frame = new byte[Math.max(PacketRefFlyweight.LENGTH, DataFlyweight.dataFrameLength(maxPayload))];
        this.data = new DataFlyweight().wrap(frame, 0);
        this.ref = new PacketRefFlyweight().wrap(frame, 0);
    }

    /**
     * Lets packets every member has resolved leave the buffer before their retention time ({@link Stability});
     * without it, every packet is kept its full time.
     */
    public void useStability(Stability stability) {
        useStability(stability, 0);
    }

    /**
     * As {@link #useStability(Stability)}, and holds each group's sends to a window: at most {@code window} packets
     * sent to a group beyond what some member reported receiving ({@link #readyAtNs(int, long)}); 0 = no window.
     */
    public void useStability(Stability stability, int window) {
        this.stability = stability;
        this.window = window;
    }

    /**
     * Lets NAKs for runs of packets longer than LEC repairs be answered with fountain symbols multicast to the group
     * ({@link FountainSender}); without it, every NAK gets its own answer.
     */
    public void useFountain(FountainSender backup) {
        this.fountain = backup;
    }

    /** Keeps a copy of a packet this node sent at {@code nowNs}. */
    public void sent(int group, long seqno, byte[] payload, int offset, int length, long nowNs) {
        if (buffering) {
            int oldest = retransmitBuffer.nextSlot();
            if (stability != null && retransmitBuffer.size() == retransmitBuffer.capacity()
                    && sentNs[oldest] + retentionNs > nowNs) {
                counters.increment(NakCounter.STABLE_RELEASES);
            }
            sentNs[retransmitBuffer.put(new PacketId(self, group, seqno), payload, offset, length)] = nowNs;
        }
    }

    /**
     * The earliest time at or after {@code nowNs} when the next send evicts no packet a member may still ask for:
     * now while the buffer has room or its oldest packet is stable (every member resolved it), else when that
     * packet has been kept for the retention time.
     */
    public long readyAtNs(long nowNs) {
        if (!buffering || retransmitBuffer.size() < retransmitBuffer.capacity()) {
            return nowNs;
        }
        int oldest = retransmitBuffer.nextSlot();
        if (stability != null) {
            PacketId id = retransmitBuffer.idAt(oldest);
            if (stability.isStable(id.group(), id.seqno())) {
                return nowNs;
            }
        }
        return Math.max(nowNs, sentNs[oldest] + retentionNs);
    }

    /**
     * As {@link #readyAtNs(long)}, for a send to {@code group}, held to the send window as well: with {@code window}
     * packets of the group sent beyond some member's reported progress (what has arrived there or is known missing:
     * a loss waiting for its NAK does not hold the window), the next send waits for a report (the daemon rechecks
     * after every batch of received datagrams), or until the window's oldest packet has been kept its retention time,
     * after which no member may ask for it any more. So a sender goes at its slowest receiver's pace,
     * and one that stopped reporting (crashed, not yet out of the view) slows it to window packets per retention time.
     */
    public long readyAtNs(int group, long nowNs) {
        long ready = readyAtNs(nowNs);
        if (window == 0 || stability == null) {
            return ready;
        }
        long next = nextSeqno.applyAsLong(group);
        long[] floor = progressFloor.get(group);
        if (floor == null) {
            floor = new long[1];
            progressFloor.put(group, floor);
        }
        if (next - floor[0] < window) {
            return ready;
        }
        floor[0] = Math.max(floor[0], stability.progressBelow(group));
        if (next - floor[0] < window) {
            return ready;
        }
        int oldest = retransmitBuffer.find(new PacketId(self, group, next - window));
        return oldest < 0 ? ready : Math.max(ready, sentNs[oldest] + retentionNs);
    }

    /** Forgets the window of a group this node no longer sends to. */
    public void forgetGroup(int group) {
        progressFloor.remove(group);
    }

    /**
     * One entry of a validated STABLE addressed to this node: {@code member} (the frame's source, listed in
     * {@code group}: the caller checked) has resolved this node's stream in {@code group} below {@code seqno}.
     */
    public void onStable(int member, int group, long seqno) {
        onStable(member, group, seqno, seqno);
    }

    /**
     * As {@link #onStable(int, int, long)}, with the member's progress in the group: every seqno below
     * {@code progress} (at least {@code seqno}) has arrived there or is known missing.
     */
    public void onStable(int member, int group, long seqno, long progress) {
        if (stability == null || progress > nextSeqno.applyAsLong(group)) {
            // Beyond what we sent: a forged or buggy report must not release packets or open the window early.
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        stability.reported(group, member, seqno, progress);
    }

    /** A validated NAK, from its header's source, a member of the NAK's group (the caller checked). */
    public void onNak(PacketRefFlyweight nak, long nowNs) {
        counters.increment(NakCounter.NAKS_RECEIVED);
        if (nak.origin() != self || nak.seqno() >= nextSeqno.applyAsLong(nak.group())) {
            // Not ours, or a packet we have not sent: GONE would make the requester give up on a packet that may
            // still come. Only a forged or buggy input (a repair naming a future seqno) leads a member to ask.
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        int requester = nak.source();
        if (fountain != null && fountain.onNak(requester, nak.group(), nak.seqno(), nak.frameLength(), nowNs)) {
            return;
        }
        answer(requester, nak.group(), nak.seqno(), nak.frameLength(), nowNs);
    }

    /**
     * Answers a member's NAK for this node's packet {@code seqno} of {@code group}, {@code nakLength} bytes long: a
     * retransmission if the packet is still buffered, else GONE (each NAK's answer, and the fountain backup's for
     * the NAKs of a range it did not code after all).
     */
    public void answer(int requester, int group, long seqno, int nakLength, long nowNs) {
        if (perRequester > 0 && !requesters.computeIfAbsent(requester,
                r -> new TokenBucket(perRequester, Math.max(1, perRequester / 10))).tryAcquire(nowNs)) {
            counters.increment(NakCounter.ANSWERS_THROTTLED);
            return;
        }
        int slot = retransmitBuffer.find(new PacketId(self, group, seqno));
        if (slot < 0) {
            int length = ref.write(FrameType.GONE, self, self, group, seqno);
            counters.increment(NakCounter.GONE_SENT);
            outbox.unicast(requester, frame, 0, length);
            return;
        }
        int answer = DataFlyweight.dataFrameLength(retransmitBuffer.length(slot));
        if (!PacketRefFlyweight.mayAnswer(nakLength, answer)) {
            // A NAK padded for a smaller frame limit than ours (a misconfigured member, or a forged NAK): the
            // answer would be more than three times its bytes.
            counters.increment(NakCounter.NAKS_TOO_SHORT);
            return;
        }
        int length = data.write(FrameType.RETRANSMIT, self, self, group, seqno,
                retransmitBuffer.payload(slot), retransmitBuffer.offset(slot), retransmitBuffer.length(slot));
        counters.increment(NakCounter.RETRANSMITS_SENT);
        outbox.unicast(requester, frame, 0, length);
    }

    /** The buffer of sent packets (LEC reads this node's own packets from it to recover a neighbour's repair). */
    public PacketStore buffer() {
        return retransmitBuffer;
    }

    public int bufferedPackets() {
        return retransmitBuffer.size();
    }

    public long memoryBytes() {
        return retransmitBuffer.memoryBytes();
    }
}
