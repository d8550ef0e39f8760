package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Where a member's stream from a sender that was in the group before it starts: the sender's <i>join point</i>
 * (docs/design/security.md, "Join points"). A node that joins a group, or comes back to it, or restarts, takes none
 * of a sender's data until that sender told it, in a JOIN_POINT bound to this node and echoing a nonce of this
 * node's JOIN_PROBE, the first seqno of the stream that is for it. Without that, DATA captured before the join and
 * replayed within the clock-skew window would start the stream and be delivered: a message that was never
 * addressed to this member.
 *
 * <p>The probe is sent when this node joins (to every member it finds listed) or when a frame shows a listed sender
 * it has no stream of, asking {@link #FROM_NOW}. A member that sees a sender join after it asks {@link #FROM_ITS_JOIN}
 * instead: where the sender's stream continued when its own join took effect, since a sender that left and came back
 * without restarting does not start again at 0, and what it sent since its join is for every member that was there. The
 * probe is repeated at doubling intervals from {@link #FIRST_RETRY_NS} to {@link #MAX_RETRY_NS} with the same nonce,
 * until answered or the sender leaves. Frames of an awaited stream are dropped (counted), but the highest seqno they
 * showed is kept, so the losses from the join point up to it are found at once when the answer comes. The nonces rise
 * strictly and start at the engine's clock (in the daemon the JVM's monotonic nanosecond clock, which keeps rising
 * across the processes of one boot), so an answer captured from an earlier join, or from an earlier run of this node,
 * never matches a probe of this one.
 *
 * <p>Bounded: one entry per (listed sender, group this node is in). The sender's side is one 36-byte answer per
 * 36-byte probe ({@link #answer}), to the prober only.
 */
public final class JoinPoints {
    /**
     * The first repeat of an unanswered probe comes this long after it: well past a round trip on a datacenter link,
     * and past most of the delay of a JVM that is still starting (shorter, the demo's cold daemons answered each
     * probe twice).
     */
    public static final long FIRST_RETRY_NS = 50_000_000L;
    /** Repeats double up to this interval. */
    public static final long MAX_RETRY_NS = 1_000_000_000L;
    /** What {@link #take} returns for an answer no probe of this node is waiting for. */
    public static final long NOT_AWAITED = Long.MIN_VALUE;

    /** A probe's question (its Sequence Number field), from a node that joined: the sender's next seqno. */
    public static final long FROM_NOW = 0;
    /**
     * A probe's question from a member that saw the sender join: the seqno the sender's stream continued at when
     * that join took effect at the sender.
     */
    public static final long FROM_ITS_JOIN = 1;

    /** One awaited join point. */
    private static final class Pending {
        final int origin;
        final int group;
        final long nonce;
        final long asked;
        long highestSeen = -1;
        long retryAtNs;
        long intervalNs = FIRST_RETRY_NS;

        Pending(int origin, int group, long nonce, long asked) {
            this.origin = origin;
            this.group = group;
            this.nonce = nonce;
            this.asked = asked;
        }
    }

    private final int self;
    private final Counters counters;
    private final Outbox outbox;
    private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
    private final Int2IntHashMap perGroup = new Int2IntHashMap(0);
    private final byte[] frame = new byte[PacketRefFlyweight.JOIN_LENGTH];
    private final PacketRefFlyweight out = new PacketRefFlyweight().wrap(frame, 0);
    private long lastNonce = Long.MIN_VALUE;
    private long nextRetryNs = Long.MAX_VALUE;

    public JoinPoints(int self, Counters counters, Outbox outbox) {
        this.self = self;
        this.counters = counters;
        this.outbox = outbox;
    }

    /**
     * This node takes nothing of {@code origin}'s stream in {@code group} before its join point: probes for it now
     * unless a probe is out already. {@code seqnoSeen} is a seqno a dropped frame of the stream showed, or -1.
     */
    public void await(int origin, int group, long seqnoSeen, long nowNs) {
        await(origin, group, seqnoSeen, FROM_NOW, nowNs);
    }

    /**
     * {@code origin} joined {@code group} after this node: this node takes its stream from where it continued at
     * that join, once the sender says ({@link #FROM_ITS_JOIN}); a probe out with another question is replaced.
     */
    public void awaitFromItsJoin(int origin, int group, long nowNs) {
        cancel(origin, group);
        await(origin, group, -1, FROM_ITS_JOIN, nowNs);
    }

    private void await(int origin, int group, long seqnoSeen, long asked, long nowNs) {
        long key = StreamTable.key(origin, group);
        Pending entry = pending.get(key);
        if (entry == null) {
            lastNonce = Math.max(lastNonce + 1, nowNs);
            entry = new Pending(origin, group, lastNonce, asked);
            pending.put(key, entry);
            perGroup.put(group, perGroup.get(group) + 1);
            probe(entry, nowNs);
        }
        entry.highestSeen = Math.max(entry.highestSeen, seqnoSeen);
    }

    /** Whether this node waits for {@code origin}'s join point in {@code group}. */
    public boolean isAwaited(int origin, int group) {
        return pending.containsKey(StreamTable.key(origin, group));
    }

    /** Join points this node still waits for in {@code group}. */
    public int awaiting(int group) {
        return perGroup.get(group);
    }

    /**
     * A JOIN_POINT from {@code answer.origin()}: if it answers the probe out for that stream (same nonce), the wait
     * ends and the highest seqno seen meanwhile (or -1) is returned; otherwise {@link #NOT_AWAITED}, counted (a late
     * copy, or an answer replayed from another join).
     */
    public long take(PacketRefFlyweight answer) {
        long key = StreamTable.key(answer.origin(), answer.group());
        Pending entry = pending.get(key);
        if (entry == null || entry.nonce != answer.nonce()) {
            counters.increment(NakCounter.JOIN_POINTS_UNMATCHED);
            return NOT_AWAITED;
        }
        counters.increment(NakCounter.JOIN_POINTS_RECEIVED);
        remove(key, entry);
        return entry.highestSeen;
    }

    /** Stops waiting for {@code origin}'s join point in {@code group} (it left, or a stream of it exists now). */
    public void cancel(int origin, int group) {
        long key = StreamTable.key(origin, group);
        Pending entry = pending.get(key);
        if (entry != null) {
            remove(key, entry);
        }
    }

    /** Stops waiting for every join point of {@code group} (this node left it). */
    public void cancelGroup(int group) {
        if (perGroup.get(group) == 0) {
            return;
        }
        pending.values().removeIf(entry -> entry.group == group);
        perGroup.remove(group);
    }

    /**
     * The sender's side: tells {@code requester} that its stream in {@code group} starts for it at {@code next} (the
     * answer to the probe's question, which the caller reads).
     */
    public void answer(int requester, int group, long next, long nonce) {
        int length = out.writeJoin(FrameType.JOIN_POINT, self, self, group, next, nonce);
        counters.increment(NakCounter.JOIN_POINTS_SENT);
        outbox.unicast(requester, frame, 0, length);
    }

    /** Repeats every probe due at {@code nowNs}. */
    public void poll(long nowNs) {
        if (nextRetryNs - nowNs > 0) {
            return;
        }
        long next = Long.MAX_VALUE;
        for (Pending entry : pending.values()) {
            if (entry.retryAtNs - nowNs <= 0) {
                entry.intervalNs = Math.min(MAX_RETRY_NS, entry.intervalNs * 2);
                probe(entry, nowNs);
            }
            next = Math.min(next, entry.retryAtNs);
        }
        nextRetryNs = next;
    }

    public long nextDeadlineNs() {
        return nextRetryNs;
    }

    private void probe(Pending entry, long nowNs) {
        int length = out.writeJoin(FrameType.JOIN_PROBE, self, entry.origin, entry.group, entry.asked, entry.nonce);
        counters.increment(NakCounter.JOIN_PROBES_SENT);
        outbox.unicast(entry.origin, frame, 0, length);
        entry.retryAtNs = nowNs + entry.intervalNs;
        nextRetryNs = Math.min(nextRetryNs, entry.retryAtNs);
    }

    private void remove(long key, Pending entry) {
        pending.remove(key);
        int left = perGroup.get(entry.group) - 1;
        if (left <= 0) {
            perGroup.remove(entry.group);
        } else {
            perGroup.put(entry.group, left);
        }
    }
}
