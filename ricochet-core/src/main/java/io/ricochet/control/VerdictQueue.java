package io.ricochet.control;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The failure verdicts waiting to reach one GMS partition, oldest first, at most {@code capacity} of them. A verdict
 * stays until its write succeeds; when the connection drops, the ones written but not confirmed are sent again
 * after the reconnect (the GMS treats repeats as no-ops). When full, the oldest is dropped and counted.
 * Single-threaded (the partition's event loop); no I/O.
 */
final class VerdictQueue {
    /** One queued verdict and whether it was written on the current connection. */
    static final class Entry {
        final ControlMessage verdict;
        boolean written;

        Entry(ControlMessage verdict) {
            this.verdict = verdict;
        }
    }

    private final int capacity;
    private final Deque<Entry> entries = new ArrayDeque<>();
    private long dropped;

    VerdictQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("verdict queue capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Queues {@code verdict}; returns the dropped oldest verdict if the queue was full, else null. */
    ControlMessage offer(ControlMessage verdict) {
        ControlMessage evicted = null;
        if (entries.size() == capacity) {
            evicted = entries.pollFirst().verdict;
            dropped++;
        }
        entries.addLast(new Entry(verdict));
        return evicted;
    }

    /** The entries not yet written on this connection, oldest first, now marked written. */
    List<Entry> takeUnwritten() {
        List<Entry> batch = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.written) {
                e.written = true;
                batch.add(e);
            }
        }
        return batch;
    }

    /** {@code entry}'s write succeeded: it is done (no-op if it was dropped meanwhile). */
    void confirm(Entry entry) {
        entries.removeIf(e -> e == entry);
    }

    /** The connection dropped: everything unconfirmed is to be written again. */
    void connectionLost() {
        entries.forEach(e -> e.written = false);
    }

    int size() {
        return entries.size();
    }

    long dropped() {
        return dropped;
    }
}
