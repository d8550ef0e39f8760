package io.ricochet.nak;

import io.ricochet.engine.PacketId;
import java.util.HashMap;
import java.util.Map;

/**
 * The NAK layer's table of discovered, unrecovered losses (paper, section 4.2.7). A loss waits
 * {@code firstDelayNs} after discovery (NAK timeout, or the LEC give-up delay when NAK is off); then, with NAK on,
 * one NAK is due every {@code retryDelayNs} until {@code maxNaks} were sent; then it is given up. The table is
 * bounded: {@link #discover} refuses new losses when it is full.
 */
public final class LossTracker implements LossTable {
    /** What the owner does when a loss's timer fires. */
    public interface Handler {
        void sendNak(PendingLoss loss, long nowNs);

        void giveUp(PendingLoss loss, long nowNs);
    }

    private final boolean nakEnabled;
    private final int maxNaks;
    private final int capacity;
    private final Map<PacketId, PendingLoss> pending = new HashMap<>();
    private final DeadlineQueue<PendingLoss> first;
    private final DeadlineQueue<PendingLoss> retry;

    public LossTracker(boolean nakEnabled, long firstDelayNs, long retryDelayNs, int maxNaks, int capacity) {
        this.nakEnabled = nakEnabled;
        this.maxNaks = maxNaks;
        this.capacity = capacity;
        this.first = new DeadlineQueue<>(firstDelayNs);
        this.retry = new DeadlineQueue<>(retryDelayNs);
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
        return pending.containsKey(id);
    }

    /** The loss was recovered (or given up by the owner); returns it, or null if it was not pending. */
    public PendingLoss resolve(PacketId id) {
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
        fire(first, nowNs, handler);
        fire(retry, nowNs, handler);
    }

    private void fire(DeadlineQueue<PendingLoss> queue, long nowNs, Handler handler) {
        for (DeadlineQueue.Entry<PendingLoss> due = queue.pollDue(nowNs); due != null; due = queue.pollDue(nowNs)) {
            PendingLoss loss = due.item();
            if (!loss.live || loss.deadlineNs != due.deadlineNs()) {
                continue;
            }
            if (nakEnabled && loss.naksSent < maxNaks) {
                loss.naksSent++;
                handler.sendNak(loss, nowNs);
                loss.deadlineNs = retry.add(loss, nowNs);
            } else {
                resolve(loss.id);
                handler.giveUp(loss, nowNs);
            }
        }
    }

    public long nextDeadlineNs() {
        return Math.min(first.nextDeadlineNs(), retry.nextDeadlineNs());
    }

    public int size() {
        return pending.size();
    }

    /** Timer entries queued, stale ones included (bounded by losses discovered within the longest delay). */
    public int queuedTimers() {
        return first.size() + retry.size();
    }
}
