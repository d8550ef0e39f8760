package io.ricochet.api.server;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The daemon-wide budget of bytes that frames above the classic frame limit (the large SENDs of protocol version 3)
 * may hold. A connection reserves a large frame's whole length as soon as its length prefix arrives, before it
 * buffers the rest, and keeps the reservation until the request's reply is written; when the budget cannot take the
 * frame, the connection is not read until enough is given back. So hostile local clients that start huge frames and
 * never finish them, or pipeline many, pin at most the budget, and a connection that was let in can always finish its
 * frame (the budget holds at least one frame of the largest size, so one always proceeds).
 *
 * <p>Thread-safe: connections on the TCP loop and on the Unix socket's loop share it.
 */
final class LargeFrameBudget {
    private final long capacity;
    private final ApiCounters counters;
    private long reserved;
    /** Connections waiting for room, woken (each on its own loop) whenever bytes are given back. */
    private final Set<Runnable> waiting = new LinkedHashSet<>();

    /**
     * @param capacity bytes large frames may hold at once, over all connections
     * @param counters where the bytes held ({@link ApiCounter#LARGE_FRAME_BYTES}) and the waits are counted
     */
    LargeFrameBudget(long capacity, ApiCounters counters) {
        if (capacity < 1) {
            throw new IllegalArgumentException("large frame budget " + capacity + ": must be positive");
        }
        this.capacity = capacity;
        this.counters = counters;
    }

    long capacity() {
        return capacity;
    }

    /** A connection's share: what it holds, given back whole when it closes. */
    Account open() {
        return new Account();
    }

    private synchronized boolean tryReserve(Account account, int bytes, Runnable wakeUp) {
        if (reserved + bytes > capacity) {
            waiting.add(wakeUp);
            if (!account.waiting) {
                account.waiting = true; // a retry that fails again is the same wait
                counters.increment(ApiCounter.LARGE_FRAME_WAITS);
            }
            return false;
        }
        waiting.remove(wakeUp);
        account.waiting = false;
        reserved += bytes;
        account.held += bytes;
        counters.add(ApiCounter.LARGE_FRAME_BYTES, bytes);
        return true;
    }

    private void release(Account account, long bytes) {
        List<Runnable> wake;
        synchronized (this) {
            long given = Math.min(bytes, account.held);
            if (given <= 0) {
                return;
            }
            account.held -= given;
            reserved -= given;
            counters.add(ApiCounter.LARGE_FRAME_BYTES, -given);
            wake = new ArrayList<>(waiting);
            waiting.clear();
        }
        wake.forEach(Runnable::run);
    }

    private synchronized void forget(Runnable wakeUp) {
        waiting.remove(wakeUp);
    }

    /** Bytes held now, over all connections. */
    synchronized long reserved() {
        return reserved;
    }

    /** One connection's reservations. */
    final class Account {
        private long held;
        /** Its last reservation failed, and it has not reserved since. */
        private boolean waiting;

        /**
         * Reserves {@code bytes}, or, when the budget cannot take them now, returns false and runs {@code wakeUp}
         * once some bytes are given back (the caller then tries again).
         */
        boolean tryReserve(int bytes, Runnable wakeUp) {
            return LargeFrameBudget.this.tryReserve(this, bytes, wakeUp);
        }

        /** Gives back {@code bytes} of what this connection holds (never more than it holds). */
        void release(long bytes) {
            LargeFrameBudget.this.release(this, bytes);
        }

        /** Gives back everything this connection holds and stops waiting: the connection is gone. */
        void close(Runnable wakeUp) {
            forget(wakeUp);
            release(Long.MAX_VALUE);
        }

        /** Bytes this connection holds. */
        long held() {
            synchronized (LargeFrameBudget.this) {
                return held;
            }
        }
    }
}
