package io.ricochet.nak;

import java.util.HashMap;
import java.util.Map;

/**
 * Tail-loss discovery for the NAK layer: a fixed delay after the last packet of a burst on one of this node's
 * streams, it announces the stream's highest seqno once (a SESSION frame, after SRM's session messages).
 *
 * <p>Why: a loss is discovered by a sequence gap or by a repair naming the packet. A receiver misses all the
 * repairs naming a given packet with probability about e^(-c(1-L)(s-2)/(s-1)) (a few percent at c = 5, L = 20 %),
 * and at the paper's per-stream rates (under one packet per second at d = 128) the gap then shows only a second or
 * more later. One announcement per idle stream bounds discovery at {@code delay} plus one hop, at a cost of at
 * most one 28-byte multicast per data packet, and none while a stream is busy.
 */
public final class SessionAnnouncer {
    /** Sends the announcement. */
    public interface Handler {
        void announce(int group, long highestSeqno, long nowNs);
    }

    private final DeadlineQueue<long[]> queue;
    private final Map<Integer, long[]> lastSend = new HashMap<>();

    public SessionAnnouncer(long delayNs) {
        this.queue = new DeadlineQueue<>(delayNs);
    }

    /** This node sent {@code seqno} on {@code group} at {@code nowNs}. */
    public void sent(int group, long seqno, long nowNs) {
        long[] state = lastSend.computeIfAbsent(group, g -> new long[] {g, 0, 0});
        state[1] = seqno;
        state[2] = queue.add(state, nowNs);
    }

    /** Announces every stream whose last send was {@code delay} ago with nothing sent since. */
    public void poll(long nowNs, Handler handler) {
        for (DeadlineQueue.Entry<long[]> due = queue.pollDue(nowNs); due != null; due = queue.pollDue(nowNs)) {
            long[] state = due.item();
            if (state[2] == due.deadlineNs()) {
                handler.announce((int) state[0], state[1], nowNs);
            }
        }
    }

    /** Forgets a group this node left. */
    public void left(int group) {
        long[] state = lastSend.remove(group);
        if (state != null) {
            state[2] = Long.MIN_VALUE;
        }
    }

    public long nextDeadlineNs() {
        return queue.nextDeadlineNs();
    }
}
