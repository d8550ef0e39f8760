package io.ricochet.bench.compare;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The messages whose first copy the loss injection dropped at one receiver and that it has not delivered yet. The
 * dropping side records each drop; the delivery side asks, once per delivery, whether the message was one of them.
 * Bounded: beyond {@code capacity} pending drops (messages never recovered) the oldest is forgotten and counted.
 * Thread-safe: JGroups drops and delivers on different threads.
 */
public final class DropLog {
    /** A message's name on one system: (sender, counter) for JGroups, (origin and group, seqno) for Ricochet. */
    public record Key(long high, long low) {
    }

    private final int capacity;
    private final Map<Key, Boolean> pending;
    private long dropped;
    private long forgotten;
    /** {@code pending.size()}, readable without the lock. */
    private volatile int pendingNow;

    /**
     * @param capacity pending drops kept at most
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    public DropLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.pending = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Boolean> eldest) {
                if (size() > DropLog.this.capacity) {
                    forgotten++;
                    return true;
                }
                return false;
            }
        };
    }

    /** The first copy of {@code key} was dropped (a second drop of the same key counts once). */
    public synchronized void dropped(Key key) {
        if (pending.putIfAbsent(key, Boolean.TRUE) == null) {
            dropped++;
        }
        pendingNow = pending.size();
    }

    /** Whether {@code key}, being delivered now, was dropped (and not yet delivered); forgets it. */
    public boolean delivered(Key key) {
        // Most deliveries are of messages never dropped: with nothing pending there is nothing to look up or lock
        // (a drop is recorded before the delivery of its message, on the same thread or one that handed it on).
        if (pendingNow == 0) {
            return false;
        }
        synchronized (this) {
            boolean was = pending.remove(key) != null;
            pendingNow = pending.size();
            return was;
        }
    }

    /** Drops recorded. */
    public synchronized long droppedCount() {
        return dropped;
    }

    /** Drops not (yet) delivered. */
    public synchronized long pendingCount() {
        return pending.size();
    }

    /** Drops forgotten because more than the capacity were pending. */
    public synchronized long forgottenCount() {
        return forgotten;
    }
}
