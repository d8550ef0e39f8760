package io.ricochet.bench.compare;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * At most {@code size} sends in flight, for one sending thread, with hysteresis: a sender that finds the window
 * full sleeps until half of it has drained, not until one send completes. A window that woke its sender at every
 * completion (a semaphore) made the daemon's thread wake the sender once per message while the window was full:
 * a futex wake-up and a preemption per message, a third of the sending daemon's CPU in a 1 KB throughput trial.
 * Flow control with credits granted in batches, as JGroups' does, works the same way.
 *
 * <p>{@link #acquire} and {@link #awaitEmpty} are called from one thread at a time; {@link #release} from any.
 */
final class SendWindow {
    private final int size;
    private final int wakeAt;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile Thread waiter;

    /** @param size sends in flight at most (at least 2) */
    SendWindow(int size) {
        if (size < 2) {
            throw new IllegalArgumentException("size = " + size + ": a window holds at least 2 sends");
        }
        this.size = size;
        this.wakeAt = size / 2;
    }

    /** Takes a place for one send, waiting while the window is full (until half of it is free again). */
    void acquire() throws InterruptedException {
        if (inFlight.get() >= size) {
            awaitAtMost(wakeAt);
        }
        inFlight.incrementAndGet();
    }

    /** Frees the place of a completed send. */
    void release() {
        int now = inFlight.decrementAndGet();
        if (now <= wakeAt) {
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    /** Waits until every send taken has been released. */
    void awaitEmpty() throws InterruptedException {
        awaitAtMost(0);
    }

    /** Sends in flight now. */
    int inFlight() {
        return inFlight.get();
    }

    private void awaitAtMost(int limit) throws InterruptedException {
        // The waiter is published before the count is read again: a release that brings the count down either is
        // seen here or sees the waiter (both are volatile), so no wake-up is lost.
        waiter = Thread.currentThread();
        try {
            while (inFlight.get() > limit) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            waiter = null;
        }
    }
}
