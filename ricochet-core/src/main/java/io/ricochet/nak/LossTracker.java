package io.ricochet.nak;

import io.ricochet.engine.PacketId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The NAK layer's table of discovered, unrecovered losses (paper, section 4.2.7). A loss waits
 * {@code firstDelayNs} after discovery (NAK timeout, or the LEC give-up delay when NAK is off); then, with NAK on,
 * NAKs are sent until {@code maxNaks} went out, then it is given up. The table is bounded: {@link #discover}
 * refuses new losses when it is full. Three rules keep a busy or starved node from giving up what it could
 * still recover ({@code docs/design/lec.md}, "NAK layer"):
 * <ul>
 *   <li>backoff: each unanswered NAK doubles the wait before the next, from {@code retryDelayNs} up to
 *       {@code retryDelayNs << MAX_BACKOFF_DOUBLINGS}, so a sender that does not answer is not flooded;</li>
 *   <li>a NAK the owner could not send (its rate limit) is not an attempt: the loss waits, in order, in a queue
 *       served as the limit allows;</li>
 *   <li>the give-up timer fires only on time: if it runs more than a base retry delay late, the node was not
 *       running and may hold the answer unread, so the loss gets one more wait from now (at most
 *       {@code maxNaks} times).</li>
 * </ul>
 */
public final class LossTracker implements LossTable {
    /** Doublings of the retry delay after unanswered NAKs (50 ms grows to 400 ms with the paper's retry). */
    public static final int MAX_BACKOFF_DOUBLINGS = 3;

    /** What the owner does when a loss's timer fires. */
    public interface Handler {
        /** Sends one NAK for the loss; false if it could not go out now (rate limit): no attempt is used. */
        boolean sendNak(PendingLoss loss, long nowNs);

        /** When the next NAK may go out, at or after {@code nowNs} (the rate limit's next token). */
        long nextNakNs(long nowNs);

        /** The loss's NAK is held back by the rate limit until a token comes. */
        void nakHeld(PendingLoss loss);

        void giveUp(PendingLoss loss, long nowNs);
    }

    private final boolean nakEnabled;
    private final int maxNaks;
    private final int capacity;
    private final Map<PacketId, PendingLoss> pending = new HashMap<>();
    private final long retryDelayNs;
    private final DeadlineQueue<PendingLoss> first;
    /** One FIFO per backoff level: each has a fixed delay, so each stays sorted by construction. */
    private final List<DeadlineQueue<PendingLoss>> retry = new ArrayList<>();
    /**
     * Losses whose NAK is due but was held back by the rate limit, in order: served first, as tokens come, so a
     * held-back NAK costs nothing until it can go (not a retry every interval).
     */
    private final java.util.ArrayDeque<PendingLoss> held = new java.util.ArrayDeque<>();
    private long lastPollNs;
    private Handler lastHandler;

    public LossTracker(boolean nakEnabled, long firstDelayNs, long retryDelayNs, int maxNaks, int capacity) {
        this.nakEnabled = nakEnabled;
        this.maxNaks = maxNaks;
        this.capacity = capacity;
        this.retryDelayNs = retryDelayNs;
        this.first = new DeadlineQueue<>(firstDelayNs);
        for (int level = 0; level <= MAX_BACKOFF_DOUBLINGS; level++) {
            retry.add(new DeadlineQueue<>(retryDelayNs << level));
        }
    }

    /** Registers a loss discovered at {@code nowNs}. */
    @Override
    public Outcome discover(PacketId id, long nowNs) {
        if (pending.containsKey(id)) {
            return Outcome.KNOWN;
        }
        if (pending.size() >= capacity) {
            return Outcome.FULL;
        }
        PendingLoss loss = new PendingLoss(id, nowNs);
        pending.put(id, loss);
        loss.deadlineNs = first.add(loss, nowNs);
        return Outcome.NEW;
    }

    @Override
    public boolean isPending(PacketId id) {
        return !pending.isEmpty() && pending.containsKey(id);
    }

    /**
     * The loss was recovered (or given up by the owner); returns it, or null if it was not pending. Asked for every
     * packet delivered: with no loss pending it answers without touching the map, whose table keeps the size of
     * its busiest moment and would cost a cache miss per packet.
     */
    public PendingLoss resolve(PacketId id) {
        if (pending.isEmpty()) {
            return null;
        }
        PendingLoss loss = pending.remove(id);
        if (loss != null) {
            loss.live = false;
        }
        return loss;
    }

    /** Drops every pending loss of the stream (origin, group) and returns them (a sender restarted). */
    public java.util.List<PendingLoss> removeStream(int origin, int group) {
        java.util.List<PendingLoss> removed = new java.util.ArrayList<>();
        pending.values().removeIf(loss -> {
            boolean match = loss.id.origin() == origin && loss.id.group() == group;
            if (match) {
                loss.live = false;
                removed.add(loss);
            }
            return match;
        });
        return removed;
    }

    /** Fires every timer due at {@code nowNs}. */
    public void poll(long nowNs, Handler handler) {
        lastPollNs = nowNs;
        lastHandler = handler;
        for (PendingLoss loss = held.peekFirst(); loss != null; loss = held.peekFirst()) {
            if (!loss.live) {
                held.pollFirst();
            } else if (handler.sendNak(loss, nowNs)) {
                held.pollFirst();
                nakSent(loss, nowNs);
            } else {
                break;
            }
        }
        fire(first, nowNs, handler);
        for (DeadlineQueue<PendingLoss> queue : retry) {
            fire(queue, nowNs, handler);
        }
    }

    private void fire(DeadlineQueue<PendingLoss> queue, long nowNs, Handler handler) {
        for (DeadlineQueue.Entry<PendingLoss> due = queue.pollDue(nowNs); due != null; due = queue.pollDue(nowNs)) {
            PendingLoss loss = due.item();
            if (!loss.live || loss.deadlineNs != due.deadlineNs()) {
                continue;
            }
            if (nakEnabled && loss.naksSent < maxNaks) {
                if (held.isEmpty() && handler.sendNak(loss, nowNs)) {
                    nakSent(loss, nowNs);
                } else {
                    loss.deadlineNs = Long.MIN_VALUE; // waits in the held queue, not on a timer
                    held.addLast(loss);
                    handler.nakHeld(loss);
                }
            } else if (nowNs - due.deadlineNs() > retryDelayNs && loss.deferrals < maxNaks) {
                // Late: this node was not running when the loss was due, and the answer may be waiting unread.
                loss.deferrals++;
                loss.deadlineNs = retry.get(0).add(loss, nowNs);
            } else {
                resolve(loss.id);
                handler.giveUp(loss, nowNs);
            }
        }
    }

    private void nakSent(PendingLoss loss, long nowNs) {
        loss.naksSent++;
        loss.deadlineNs = retry.get(Math.min(loss.naksSent - 1, MAX_BACKOFF_DOUBLINGS)).add(loss, nowNs);
    }

    public long nextDeadlineNs() {
        long next = first.nextDeadlineNs();
        if (!held.isEmpty() && lastHandler != null) {
            next = Math.min(next, lastHandler.nextNakNs(lastPollNs));
        }
        for (DeadlineQueue<PendingLoss> queue : retry) {
            next = Math.min(next, queue.nextDeadlineNs());
        }
        return next;
    }

    public int size() {
        return pending.size();
    }

    /** Timer entries queued, stale ones included (bounded by losses discovered within the longest delay). */
    public int queuedTimers() {
        int size = first.size() + held.size();
        for (DeadlineQueue<PendingLoss> queue : retry) {
            size += queue.size();
        }
        return size;
    }
}
