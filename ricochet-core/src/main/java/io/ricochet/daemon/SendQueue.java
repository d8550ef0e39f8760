package io.ricochet.daemon;

import io.ricochet.api.ApiException;
import io.ricochet.api.DeliveryListener;
import io.ricochet.engine.Counters;
import io.ricochet.engine.TokenBucket;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The daemon's backpressure on its applications (docs/api.md, "Backpressure"), per datagram: a send that joins the
 * datagram being filled ({@link Bundler}) is taken at once; one that needs a new datagram is taken only when the
 * engine can keep it (its retransmit buffer, sized by time, has room: {@code sendReadyAtNs}) and within the
 * optional rate limit, which counts datagrams. Sends that cannot be taken at once wait here, in order, up to a
 * bound; beyond it, and for a send that may not wait (TRY_SEND), the answer is {@link ApiException.Code#BUSY}. A
 * producer faster than the network is slowed down instead of making receivers lose data. Owned by the engine's
 * event loop: every method runs there, and one timer at most is scheduled, when the head of the queue can go.
 */
final class SendQueue {
    /** What the queue feeds: the engine, through the driver. */
    interface Engine {
        /** Whether a message of {@code size} bytes to {@code group} joins the datagram being filled. */
        boolean joins(int group, int size);

        /** The earliest time at or after {@code nowNs} when the engine can take a new datagram to {@code group}. */
        long readyAtNs(int group, long nowNs);

        /** Hands a send to the engine (membership checked there); returns its message id. */
        long send(int group, byte[] payload, DeliveryListener from);
    }

    private record Pending(int group, byte[] payload, DeliveryListener from, CompletableFuture<Long> done) {
    }

    private final Engine engine;
    private final int capacity;
    private final TokenBucket rate;
    private final ScheduledExecutorService loop;
    private final LongSupplier clock;
    private final Counters counters;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private ScheduledFuture<?> retry;

    /**
     * @param capacity  sends that may wait at once
     * @param perSecond sends taken per second at most (0 = no limit)
     * @param loop      the engine's event loop, where the retry timer runs
     */
    SendQueue(Engine engine, int capacity, int perSecond, ScheduledExecutorService loop, LongSupplier clock,
              Counters counters) {
        this.engine = engine;
        this.capacity = capacity;
        this.rate = new TokenBucket(perSecond, Math.max(1, perSecond / 100));
        this.loop = loop;
        this.clock = clock;
        this.counters = counters;
    }

    /**
     * Takes a send now if it can, else queues it ({@code wait}) or refuses it BUSY. The future completes with the
     * message id when the engine took the message, or fails with the reason.
     */
    void offer(int group, byte[] payload, DeliveryListener from, boolean wait, CompletableFuture<Long> done) {
        if (queue.isEmpty()) {
            // A message that joins the open datagram needs neither the clock nor a new datagram's turn: most sends
            // of a bundling sender, taken without reading the clock or keeping a record of the send.
            if (engine.joins(group, payload.length)) {
                take(group, payload, from, done, 0, false);
                return;
            }
            long nowNs = clock.getAsLong();
            if (readyAtNs(group, nowNs) <= nowNs) {
                take(group, payload, from, done, nowNs, true);
                return;
            }
        }
        if (!wait || queue.size() >= capacity) {
            counters.increment(DaemonCounter.SENDS_BUSY);
            done.completeExceptionally(new ApiException(ApiException.Code.BUSY, wait
                    ? "the daemon's send queue is full (" + capacity + " sends); retry later"
                    : "the daemon cannot take a send now (send queue, retransmit buffer or rate limit); retry later"));
            return;
        }
        queue.addLast(new Pending(group, payload, from, done));
        counters.increment(DaemonCounter.SENDS_QUEUED);
        counters.max(DaemonCounter.SEND_QUEUE_PEAK, queue.size());
        drain();
    }

    /** Sends waiting now. */
    int size() {
        return queue.size();
    }

    /** Fails every waiting send (the daemon is stopping). */
    void failAll(ApiException reason) {
        for (Pending send = queue.pollFirst(); send != null; send = queue.pollFirst()) {
            send.done().completeExceptionally(reason);
        }
        if (retry != null) {
            retry.cancel(false);
        }
    }

    /**
     * The engine may have become ready sooner than it said (a STABLE report freed its retransmit buffer): sends
     * waiting for it go now if they can, instead of at the retry time.
     */
    void recheck() {
        if (queue.isEmpty() || retry == null) {
            return;
        }
        long nowNs = clock.getAsLong();
        Pending head = queue.peekFirst();
        if (engine.joins(head.group(), head.payload().length) || readyAtNs(head.group(), nowNs) <= nowNs) {
            retry.cancel(false);
            retry = null;
            drain();
        }
    }

    private long readyAtNs(int group, long nowNs) {
        return Math.max(engine.readyAtNs(group, nowNs), rate.availableAtNs(nowNs));
    }

    private void drain() {
        long nowNs = clock.getAsLong();
        while (!queue.isEmpty()) {
            Pending head = queue.peekFirst();
            boolean joins = engine.joins(head.group(), head.payload().length);
            long readyNs = joins ? nowNs : readyAtNs(head.group(), nowNs);
            if (readyNs > nowNs) {
                if (retry == null) {
                    retry = loop.schedule(this::onRetry, readyNs - nowNs, TimeUnit.NANOSECONDS);
                }
                return;
            }
            Pending send = queue.pollFirst();
            take(send.group(), send.payload(), send.from(), send.done(), nowNs, !joins);
        }
    }

    private void onRetry() {
        retry = null;
        drain();
    }

    private void take(int group, byte[] payload, DeliveryListener from, CompletableFuture<Long> done, long nowNs,
                      boolean newDatagram) {
        if (newDatagram) {
            rate.tryAcquire(nowNs);
        }
        try {
            done.complete(engine.send(group, payload, from));
        } catch (ApiException e) {
            done.completeExceptionally(e);
        } catch (RuntimeException e) {
            done.completeExceptionally(new ApiException(ApiException.Code.INTERNAL, e.toString()));
        }
    }
}
