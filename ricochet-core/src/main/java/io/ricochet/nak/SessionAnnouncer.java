package io.ricochet.nak;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tail-loss discovery for the NAK layer: after the last packet of a burst on one of this node's streams, it
 * announces the stream's highest seqno (a SESSION frame, after SRM's session messages): a fixed delay after that
 * packet, then again at doubling intervals, {@link #ANNOUNCEMENTS} times in all unless the stream sends again.
 *
 * <p>Why: a loss is discovered by a sequence gap or by a repair naming the packet. A receiver misses all the
 * repairs naming a given packet with probability about e^(-c(1-L)(s-2)/(s-1)) (a few percent at c = 5, L = 20 %),
 * and at the paper's per-stream rates (under one packet per second at d = 128) the gap then shows only a second or
 * more later; a stream that goes quiet for good shows no gap at all. The announcement bounds discovery at
 * {@code delay} plus one hop. It is repeated because it can be lost too, and a tail loss nobody discovers is a
 * packet neither delivered nor reported LOST: with loss L, all {@link #ANNOUNCEMENTS} are lost with probability
 * L^5, and the doubling spreads them over a burst of loss (delay 50 ms: at 50, 150, 350, 750 and 1550 ms, inside
 * the time a sender keeps its packets for NAKs). Cost: at most five 28-byte multicasts per burst, none while a
 * stream is busy.
 *
 * <p>{@link #announceEarly} lets an announcement go with another that is due, once it has waited at least half its
 * wait: the engine uses it for groups with the same members as the due one, whose announcements then share its
 * datagram ({@code SessionBatch}) where each would otherwise be due at its own moment. An announcement goes at most
 * half its wait early (the first 25 to 50 ms after the burst with delay 50 ms), never late.
 */
public final class SessionAnnouncer {
    /** Announcements of one idle stream, each after twice the wait of the one before. */
    public static final int ANNOUNCEMENTS = 5;

    /** Sends the announcement. */
    public interface Handler {
        void announce(int group, long highestSeqno, long nowNs);
    }

    /** Stream state: group, highest seqno, the deadline it is queued for (current if equal), announcements made. */
    private static final int GROUP = 0;
    private static final int SEQNO = 1;
    private static final int DEADLINE = 2;
    private static final int MADE = 3;

    /** One queue per announcement: queue k holds the streams waiting delay * 2^k for announcement k + 1. */
    private final List<DeadlineQueue<long[]>> queues = new ArrayList<>();
    private final Map<Integer, long[]> lastSend = new HashMap<>();
    private final long delayNs;

    public SessionAnnouncer(long delayNs) {
        this.delayNs = delayNs;
        for (int k = 0; k < ANNOUNCEMENTS; k++) {
            queues.add(new DeadlineQueue<>(delayNs << k));
        }
    }

    /** This node sent {@code seqno} on {@code group} at {@code nowNs}. */
    public void sent(int group, long seqno, long nowNs) {
        long[] state = lastSend.computeIfAbsent(group, g -> new long[] {g, 0, 0, 0});
        state[SEQNO] = seqno;
        state[MADE] = 0;
        state[DEADLINE] = queues.get(0).add(state, nowNs);
    }

    /** Announces every stream due at {@code nowNs}: its last send or last announcement was long enough ago. */
    public void poll(long nowNs, Handler handler) {
        for (int k = 0; k < ANNOUNCEMENTS; k++) {
            DeadlineQueue<long[]> queue = queues.get(k);
            for (DeadlineQueue.Entry<long[]> due = queue.pollDue(nowNs); due != null; due = queue.pollDue(nowNs)) {
                if (isCurrent(k, due)) {
                    announce(due.item(), nowNs, handler);
                } // else sent again, or left, since it was queued
            }
        }
    }

    /**
     * Announces {@code group}'s stream now if an announcement of it is pending and has waited at least half its wait;
     * returns whether it did.
     */
    public boolean announceEarly(int group, long nowNs, Handler handler) {
        long[] state = lastSend.get(group);
        if (state == null || state[MADE] >= ANNOUNCEMENTS || state[DEADLINE] == Long.MIN_VALUE) {
            return false;
        }
        long halfWait = (delayNs << state[MADE]) / 2;
        if (state[DEADLINE] - halfWait - nowNs > 0) {
            return false;
        }
        announce(state, nowNs, handler);
        return true;
    }

    private void announce(long[] state, long nowNs, Handler handler) {
        handler.announce((int) state[GROUP], state[SEQNO], nowNs);
        state[MADE]++;
        state[DEADLINE] = state[MADE] < ANNOUNCEMENTS ? queues.get((int) state[MADE]).add(state, nowNs)
                : Long.MIN_VALUE;
    }

    /** Forgets a group this node left. */
    public void left(int group) {
        long[] state = lastSend.remove(group);
        if (state != null) {
            state[DEADLINE] = Long.MIN_VALUE;
        }
    }

    /** The earliest deadline of an announcement still to be made (cancelled ones are dropped here). */
    public long nextDeadlineNs() {
        long next = Long.MAX_VALUE;
        for (int k = 0; k < ANNOUNCEMENTS; k++) {
            DeadlineQueue<long[]> queue = queues.get(k);
            for (DeadlineQueue.Entry<long[]> head = queue.head(); head != null && !isCurrent(k, head);
                    head = queue.head()) {
                queue.dropHead();
            }
            next = Math.min(next, queue.nextDeadlineNs());
        }
        return next;
    }

    /** True if {@code entry} of queue {@code k} is its stream's pending announcement (not sent again or left since). */
    private static boolean isCurrent(int k, DeadlineQueue.Entry<long[]> entry) {
        long[] state = entry.item();
        return state[DEADLINE] == entry.deadlineNs() && state[MADE] == k;
    }
}
