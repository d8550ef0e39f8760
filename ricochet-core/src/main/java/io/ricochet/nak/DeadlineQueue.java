package io.ricochet.nak;

import java.util.ArrayDeque;

/**
 * Deadlines that all lie a fixed delay after the time they were added. Since time only moves forward, such a
 * queue is sorted by construction: a FIFO is an exact timer queue with O(1) add and poll, and no task is ever
 * scheduled per lost packet. Cancelled items stay until their deadline; the owner recognises and skips them.
 *
 * @param <T> what a deadline is for
 */
final class DeadlineQueue<T> {
    /** A due item and the deadline it was queued with. */
    record Entry<T>(long deadlineNs, T item) {
    }

    private final long delayNs;
    private final ArrayDeque<Entry<T>> queue = new ArrayDeque<>();

    DeadlineQueue(long delayNs) {
        this.delayNs = delayNs;
    }

    /** Queues {@code item} for {@code nowNs + delay}; returns that deadline. */
    long add(T item, long nowNs) {
        long deadline = nowNs + delayNs;
        queue.addLast(new Entry<>(deadline, item));
        return deadline;
    }

    /** The head if it is due at {@code nowNs}, else null. */
    Entry<T> pollDue(long nowNs) {
        Entry<T> head = queue.peekFirst();
        if (head == null || head.deadlineNs() - nowNs > 0) {
            return null;
        }
        return queue.pollFirst();
    }

    /** The earliest deadline's entry, due or not, or null. */
    Entry<T> head() {
        return queue.peekFirst();
    }

    /** Drops the earliest deadline's entry (a cancelled one its owner recognised). */
    void dropHead() {
        queue.pollFirst();
    }

    long nextDeadlineNs() {
        Entry<T> head = queue.peekFirst();
        return head == null ? Long.MAX_VALUE : head.deadlineNs();
    }

    int size() {
        return queue.size();
    }
}
