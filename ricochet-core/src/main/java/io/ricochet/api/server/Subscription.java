package io.ricochet.api.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.ricochet.api.DeliveryListener;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiRequest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection as the daemon sees it: the {@link DeliveryListener} for the groups the connection joined, which
 * turns deliveries into DELIVER and LOST frames, collected over one engine batch and written to the connection
 * together at its end. Called on the daemon's engine thread, it never blocks: when the connection's write buffer is
 * above its high water mark it drops the frame and counts it, and the count goes to the client in an OVERFLOW frame
 * as soon as the connection can take frames again.
 */
final class Subscription implements DeliveryListener {
    /** A push frame's bytes besides its payload, about (length, type, ids): for counting a batch's bytes. */
    private static final int FRAME_OVERHEAD_BYTES = 32;

    private final Channel channel;
    private final ApiCounters counters;
    private final Set<Integer> groups = ConcurrentHashMap.newKeySet();
    private final AtomicLong dropped = new AtomicLong();
    /** Frames of the engine's current batch, written and flushed together at its end; engine thread only. */
    private List<ApiPush> pending = new java.util.ArrayList<>();
    /** About the bytes {@link #pending} will take in the write buffer: counted against its room before they go. */
    private long pendingBytes;
    /** The OPTIONS flags ({@link ApiRequest.Options}); read on the engine thread, set on the I/O thread. */
    private volatile int options;

    Subscription(Channel channel, ApiCounters counters) {
        this.channel = channel;
        this.counters = counters;
    }

    /** Records {@code group} as joined; false if it already was. */
    boolean add(int group) {
        return groups.add(group);
    }

    /** Forgets {@code group}; false if it was not joined. Deliveries for it stop at once. */
    boolean remove(int group) {
        return groups.remove(group);
    }

    boolean contains(int group) {
        return groups.contains(group);
    }

    /** How many groups the connection has joined (or is joining). */
    int size() {
        return groups.size();
    }

    /** Replaces the connection's OPTIONS flags. */
    void options(int flags) {
        options = flags;
    }

    /** Default: every local send; NO_LOCAL: none; NO_ECHO: those of other connections. */
    @Override
    public boolean acceptsLocal(boolean own) {
        int flags = options;
        if ((flags & ApiRequest.Options.NO_LOCAL) != 0) {
            return false;
        }
        return !own || (flags & ApiRequest.Options.NO_ECHO) == 0;
    }

    /** Forgets every group and returns them, for leaving when the connection closes. */
    List<Integer> removeAll() {
        List<Integer> all = List.copyOf(groups);
        groups.removeAll(all);
        return all;
    }

    @Override
    public void delivered(int origin, int group, long seqno, byte[] payload) {
        if (groups.contains(group)) {
            push(new ApiPush.Deliver(origin, group, seqno, payload));
        }
    }

    @Override
    public void lost(int origin, int group, long seqno) {
        if (groups.contains(group)) {
            push(new ApiPush.Lost(origin, group, seqno));
        }
    }

    /** The connection is writable again (on its I/O thread): report what was dropped meanwhile. */
    void writable() {
        long count = dropped.getAndSet(0);
        if (count > 0) {
            channel.writeAndFlush(new ApiPush.Overflow(count), channel.voidPromise());
            counters.increment(ApiCounter.OVERFLOWS_SENT);
        }
    }

    private void push(ApiPush frame) {
        if (!channel.isActive()) {
            return;
        }
        if (!channel.isWritable() || pendingBytes >= channel.bytesBeforeUnwritable()) {
            dropped.incrementAndGet();
            counters.increment(ApiCounter.DELIVERIES_DROPPED);
            return;
        }
        long count = dropped.getAndSet(0);
        if (count > 0) {
            pending.add(new ApiPush.Overflow(count));
            counters.increment(ApiCounter.OVERFLOWS_SENT);
        }
        pending.add(frame);
        pendingBytes += FRAME_OVERHEAD_BYTES + (frame instanceof ApiPush.Deliver d ? d.payload().length : 0);
    }

    /**
     * Hands the batch's frames to the connection's I/O thread as one task that writes them all and flushes once:
     * one wake-up and one TCP write per connection per engine batch, not one per delivery.
     */
    @Override
    public void endOfBatch() {
        if (pending.isEmpty()) {
            return;
        }
        List<ApiPush> batch = pending;
        pending = new java.util.ArrayList<>(batch.size());
        pendingBytes = 0;
        try {
            channel.eventLoop().execute(() -> {
                for (int i = 0; i < batch.size(); i++) {
                    channel.write(batch.get(i), channel.voidPromise());
                }
                channel.flush();
                ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
                if (buffer != null) {
                    counters.raise(ApiCounter.PEAK_OUTBOUND_BYTES, buffer.totalPendingWriteBytes());
                }
            });
        } catch (RejectedExecutionException e) {
            // The API server is shutting down: its connections are being closed and take nothing more.
        }
    }
}
