package io.ricochet.client;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the reader thread puts deliveries: the subscribed callback if there is one, else a bounded queue for
 * {@link #poll}. The reader never blocks here: a delivery that finds the queue full is dropped and counted, so
 * replies to requests keep flowing whatever the application does.
 */
final class Inbox {
    private static final Logger LOG = LoggerFactory.getLogger(Inbox.class);
    /** Put in the queue on close, so a blocked poll wakes up. */
    private static final Delivery CLOSED = Delivery.lost(0, 0, 0);

    private final BlockingQueue<Delivery> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong overflowed = new AtomicLong();
    private final AtomicLong callbackFailures = new AtomicLong();
    private volatile Consumer<Delivery> callback;
    private volatile boolean closed;

    Inbox(int capacity) {
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    void subscribe(Consumer<Delivery> newCallback) {
        callback = newCallback;
    }

    /** Called on the reader thread for each DELIVER, LOST or DROPPED frame. */
    void offer(Delivery delivery) {
        Consumer<Delivery> target = callback;
        if (target == null) {
            if (!queue.offer(delivery)) {
                dropped.incrementAndGet();
            }
            return;
        }
        try {
            target.accept(delivery);
        } catch (RuntimeException e) {
            if (callbackFailures.getAndIncrement() == 0) {
                LOG.warn("delivery callback failed (further failures are only counted): {}", e.toString());
            }
        }
    }

    /** The daemon dropped {@code count} deliveries for this connection (an OVERFLOW frame). */
    void overflowed(long count) {
        overflowed.addAndGet(count);
    }

    /**
     * The next queued delivery, waiting up to {@code timeout}; null on timeout.
     *
     * @throws ApiConnectionException once the connection is closed and the queue is empty
     */
    Delivery poll(long timeout, TimeUnit unit) throws InterruptedException {
        Delivery next = queue.poll();
        if (next == null) {
            if (closed) {
                throw new ApiConnectionException("connection to the daemon is closed");
            }
            next = queue.poll(timeout, unit);
        }
        if (next == CLOSED) {
            queue.offer(CLOSED);
            throw new ApiConnectionException("connection to the daemon is closed");
        }
        return next;
    }

    void close() {
        closed = true;
        queue.offer(CLOSED);
    }

    long dropped() {
        return dropped.get();
    }

    long overflowed() {
        return overflowed.get();
    }
}
