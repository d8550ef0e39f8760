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
 * bound, in sends and in bytes; beyond it, and for a send that may not wait (TRY_SEND), the answer is
 * {@link ApiException.Code#BUSY}. A message too large for one datagram goes as fragments, one datagram each, each
 * taken when the engine can take it; it is taken whole when its last fragment is (docs/design/daemon.md,
 * "Fragmentation"), and the sends behind it wait for it. A
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

        /** The largest message one datagram carries; a larger one goes as fragments. */
        int maxSingle();

        /**
         * Hands fragment {@code index} of {@code count} of a message to the engine (membership checked there);
         * returns the message's id. The fragments of a message go in order, nothing else to the group between.
         */
        long sendFragment(int group, byte[] message, int index, int count, DeliveryListener from);
    }

    /** A send waiting for the engine; a fragmented one remembers how far it got. */
    private static final class Pending {
        final int group;
        final byte[] payload;
        final DeliveryListener from;
        final CompletableFuture<Long> done;
        final int fragments;
        int next;
        long id;

        Pending(int group, byte[] payload, DeliveryListener from, CompletableFuture<Long> done, int fragments) {
            this.group = group;
            this.payload = payload;
            this.from = from;
            this.done = done;
            this.fragments = fragments;
        }
    }

    private final Engine engine;
    private final int capacity;
    private final long capacityBytes;
    private final TokenBucket rate;
    private final ScheduledExecutorService loop;
    private final LongSupplier clock;
    private final Counters counters;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private long queuedBytes;
    private ScheduledFuture<?> retry;

    /**
     * @param capacity      sends that may wait at once
     * @param capacityBytes bytes of sends that may wait at once (at least the largest message)
     * @param perSecond     datagrams taken per second at most (0 = no limit)
     * @param loop          the engine's event loop, where the retry timer runs
     */
    SendQueue(Engine engine, int capacity, long capacityBytes, int perSecond, ScheduledExecutorService loop,
              LongSupplier clock, Counters counters) {
        this.engine = engine;
        this.capacity = capacity;
        this.capacityBytes = capacityBytes;
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
        int fragments = payload.length > engine.maxSingle()
                ? BundleFormat.fragmentsOf(payload.length, engine.maxSingle() + BundleFormat.KIND) : 0;
        if (queue.isEmpty()) {
            // A message that joins the open datagram needs neither the clock nor a new datagram's turn: most sends
            // of a bundling sender, taken without reading the clock or keeping a record of the send.
            if (fragments == 0 && engine.joins(group, payload.length)) {
                take(group, payload, from, done, 0, false);
                return;
            }
            long nowNs = clock.getAsLong();
            if (readyAtNs(group, nowNs) <= nowNs) {
                if (fragments == 0) {
                    take(group, payload, from, done, nowNs, true);
                    return;
                }
                Pending large = new Pending(group, payload, from, done, fragments);
                if (sendFragments(large, nowNs) == 0) {
                    return;
                }
                // Started: the rest of it goes as the engine takes it, before anything queued after it.
                enqueue(large);
                drain();
                return;
            }
        }
        if (!wait || queue.size() >= capacity || queuedBytes + payload.length > capacityBytes) {
            counters.increment(DaemonCounter.SENDS_BUSY);
            done.completeExceptionally(new ApiException(ApiException.Code.BUSY, wait
                    ? "the daemon's send queue is full (" + capacity + " sends, " + capacityBytes + " bytes); "
                            + "retry later"
                    : "the daemon cannot take a send now (send queue, retransmit buffer or rate limit); retry later"));
            return;
        }
        enqueue(new Pending(group, payload, from, done, fragments));
        drain();
    }

    private void enqueue(Pending send) {
        queue.addLast(send);
        queuedBytes += send.payload.length;
        counters.increment(DaemonCounter.SENDS_QUEUED);
        counters.max(DaemonCounter.SEND_QUEUE_PEAK, queue.size());
    }

    /**
     * Hands the engine the fragments of a large message it can take now, in order; returns 0 once the message is
     * taken whole (or failed), else when the engine can take the next one.
     */
    private long sendFragments(Pending send, long nowNs) {
        while (send.next < send.fragments) {
            long readyNs = readyAtNs(send.group, nowNs);
            if (readyNs > nowNs) {
                return readyNs;
            }
            rate.tryAcquire(nowNs);
            try {
                long id = engine.sendFragment(send.group, send.payload, send.next, send.fragments, send.from);
                if (send.next++ == 0) {
                    send.id = id;
                }
            } catch (ApiException e) {
                send.done.completeExceptionally(e);
                return 0;
            } catch (RuntimeException e) {
                send.done.completeExceptionally(new ApiException(ApiException.Code.INTERNAL, e.toString()));
                return 0;
            }
        }
        counters.increment(DaemonCounter.MESSAGES_FRAGMENTED);
        counters.add(DaemonCounter.FRAGMENTS_SENT, send.fragments);
        send.done.complete(send.id);
        return 0;
    }

    /** Sends waiting now. */
    int size() {
        return queue.size();
    }

    /** Fails every waiting send (the daemon is stopping). */
    void failAll(ApiException reason) {
        for (Pending send = queue.pollFirst(); send != null; send = queue.pollFirst()) {
            send.done.completeExceptionally(reason);
        }
        queuedBytes = 0;
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
        if (head.fragments == 0 && engine.joins(head.group, head.payload.length)
                || readyAtNs(head.group, nowNs) <= nowNs) {
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
            if (head.fragments > 0) {
                long readyNs = sendFragments(head, nowNs);
                if (readyNs != 0) {
                    retryAt(readyNs, nowNs);
                    return;
                }
                queuedBytes -= queue.pollFirst().payload.length;
                continue;
            }
            boolean joins = engine.joins(head.group, head.payload.length);
            long readyNs = joins ? nowNs : readyAtNs(head.group, nowNs);
            if (readyNs > nowNs) {
                retryAt(readyNs, nowNs);
                return;
            }
            Pending send = queue.pollFirst();
            queuedBytes -= send.payload.length;
            take(send.group, send.payload, send.from, send.done, nowNs, !joins);
        }
    }

    private void retryAt(long readyNs, long nowNs) {
        if (retry == null) {
            retry = loop.schedule(this::onRetry, readyNs - nowNs, TimeUnit.NANOSECONDS);
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
