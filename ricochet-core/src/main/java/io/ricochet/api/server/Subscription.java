package io.ricochet.api.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.ricochet.api.DeliveryListener;
import io.ricochet.api.MessageId;
import io.ricochet.api.Ordering;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiRequest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection as the daemon sees it: the {@link DeliveryListener} for the groups the connection joined, which
 * turns deliveries into DELIVER and LOST frames, collected over one engine batch and written to the connection
 * together at its end. Called on the daemon's engine thread, it never blocks: when the connection's write buffer is
 * above its high water mark it drops the frame, counts it and records which messages it carried ({@link DropLedger});
 * the count (OVERFLOW) and the names (DROPPED) go to the client as soon as the connection can take frames again.
 */
final class Subscription implements DeliveryListener {
    /** The least first size of a batch's buffer; it grows as frames are added, up to the connection's free room. */
    private static final int BATCH_BUFFER_BYTES = 8192;
    /**
     * The most a batch's buffer is given at first, however large the batches before it: a quarter of Netty's pool
     * chunk at most, so that freeing one batch does not free (and the next allocate and zero) a whole chunk.
     */
    private static final int MAX_BATCH_BUFFER_BYTES = 256 * 1024;

    private final Channel channel;
    private final ApiCounters counters;
    private final Set<Integer> groups = ConcurrentHashMap.newKeySet();
    private final AtomicLong dropped = new AtomicLong();
    private final DropLedger drops;
    /**
     * The frames of the engine's current batch, encoded, written and flushed together at its end; null while the
     * batch has none. Engine thread only. Its size counts against the connection's room before it is written.
     */
    private ByteBuf pending;
    private int pendingFrames;
    /**
     * The first size of the next batch's buffer: the size of the last batch, so that a busy connection's batch does
     * not grow by doubling (each step a copy of everything written so far). Engine thread only.
     */
    private int batchBytes = BATCH_BUFFER_BYTES;
    /** Whether drops are named in DROPPED frames: not to a client of protocol version 1, which has no DROPPED. */
    private volatile boolean namesDrops = true;
    /** The OPTIONS flags ({@link ApiRequest.Options}); read on the engine thread, set on the I/O thread. */
    private volatile int options;
    /** The groups whose messages the connection asked for in FIFO order (ORDER); the others are unordered. */
    private final Set<Integer> fifoGroups = ConcurrentHashMap.newKeySet();
    /**
     * The largest payload a DELIVER to this connection may carry: what fits the frame limit of its protocol version
     * (docs/api.md, "Limits"). A larger message is dropped for it, counted and named as a backpressure drop is.
     */
    private volatile int deliverLimit = ApiProtocol.payloadLimit(ApiProtocol.MAX_INBOUND_FRAME_LENGTH);

    Subscription(Channel channel, ApiCounters counters) {
        this(channel, counters, DropLedger.DEFAULT_MAX_RUNS);
    }

    /** With a ledger of at most {@code maxDropRuns} runs of dropped messages (tests use small ones). */
    Subscription(Channel channel, ApiCounters counters, int maxDropRuns) {
        this.channel = channel;
        this.counters = counters;
        this.drops = new DropLedger(maxDropRuns);
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

    /** Sets the largest payload a DELIVER to this connection may carry. */
    void deliverLimit(int limit) {
        deliverLimit = limit;
    }

    /**
     * Sets how the connection takes {@code group}'s messages; false (nothing changed) when FIFO would make it more
     * than {@code maxGroups} groups in FIFO order.
     */
    boolean order(int group, Ordering ordering, int maxGroups) {
        if (ordering == Ordering.UNORDERED) {
            fifoGroups.remove(group);
            return true;
        }
        if (!fifoGroups.contains(group) && fifoGroups.size() >= maxGroups) {
            return false;
        }
        fifoGroups.add(group);
        return true;
    }

    /** Whether the connection asked for {@code group}'s messages in per-sender FIFO order (ORDER). */
    @Override
    public boolean fifo(int group) {
        return fifoGroups.contains(group);
    }

    /** Whether drops are named in DROPPED frames (protocol version 2 and later), or only counted. */
    void namesDrops(boolean names) {
        namesDrops = names;
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
        delivered(origin, group, seqno, payload, 0, payload.length);
    }

    /** Encodes the DELIVER frame straight into the batch's buffer: the payload's one copy on this path. */
    @Override
    public void delivered(int origin, int group, long seqno, byte[] bytes, int offset, int length) {
        if (length > deliverLimit) {
            if (groups.contains(group)) {
                oversize(origin, group, seqno);
            }
            return;
        }
        if (groups.contains(group) && admit(origin, group, seqno, seqno)) {
            ApiPush.Deliver.encode(origin, group, seqno, bytes, offset, length, pending);
            pendingFrames++;
        }
    }

    @Override
    public void lost(int origin, int group, long seqno) {
        long datagramEnd = MessageId.datagram(seqno) * MessageId.PER_DATAGRAM + MessageId.PER_DATAGRAM - 1;
        if (groups.contains(group) && admit(origin, group, seqno, datagramEnd)) {
            encode(new ApiPush.Lost(origin, group, seqno));
        }
    }

    /** The connection is writable again (on its I/O thread): report what was dropped meanwhile, and which. */
    void writable() {
        long count = dropped.getAndSet(0);
        if (count == 0 && drops.isEmpty()) {
            return;
        }
        ByteBuf out = channel.alloc().ioBuffer();
        if (count > 0) {
            ApiFrameCodec.encode(new ApiPush.Overflow(count), out);
            counters.increment(ApiCounter.OVERFLOWS_SENT);
        }
        counters.add(ApiCounter.DROPPED_SENT, drops.drain(out));
        channel.writeAndFlush(out, channel.voidPromise());
    }

    /**
     * A message too large for the frames this connection's protocol version accepts: dropped, counted in OVERFLOW and
     * named in DROPPED (version 2) as a backpressure drop is, and reported at once if the connection can take frames.
     */
    private void oversize(int origin, int group, long seqno) {
        counters.increment(ApiCounter.OVERSIZE_DROPS);
        drop(origin, group, seqno, seqno);
        if (channel.isActive() && channel.isWritable()) {
            int batched = pending == null ? 0 : pending.readableBytes();
            if (batched < channel.bytesBeforeUnwritable()) {
                if (pending == null) {
                    pending = channel.alloc().ioBuffer(batchBytes);
                }
                reportDrops();
            }
        }
    }

    /** Counts a dropped frame about messages {@code firstId..lastId}, and records them for DROPPED. */
    private void drop(int origin, int group, long firstId, long lastId) {
        dropped.incrementAndGet();
        if (namesDrops && !drops.record(origin, group, firstId, lastId)) {
            counters.increment(ApiCounter.UNNAMED_DROPS);
        }
    }

    /**
     * Whether one more frame, about messages {@code firstId..lastId} of (origin, group), may join the batch: not
     * when the connection is gone, nor when its write buffer, with this batch counted, is full (the frame is dropped,
     * counted and its messages recorded, and OVERFLOW and DROPPED go first next time). Makes sure the batch has a
     * buffer, with any OVERFLOW and DROPPED owed at its head.
     */
    private boolean admit(int origin, int group, long firstId, long lastId) {
        if (!channel.isActive()) {
            return false;
        }
        int batched = pending == null ? 0 : pending.readableBytes();
        if (!channel.isWritable() || batched >= channel.bytesBeforeUnwritable()) {
            counters.increment(ApiCounter.DELIVERIES_DROPPED);
            drop(origin, group, firstId, lastId);
            return false;
        }
        if (pending == null) {
            pending = channel.alloc().ioBuffer(batchBytes);
        }
        reportDrops();
        return true;
    }

    /** Puts the OVERFLOW and DROPPED frames owed, if any, in the batch's buffer. */
    private void reportDrops() {
        long count = dropped.getAndSet(0);
        if (count > 0) {
            encode(new ApiPush.Overflow(count));
            counters.increment(ApiCounter.OVERFLOWS_SENT);
        }
        if (!drops.isEmpty()) {
            // Before this frame: a run must not go on past a message the connection was handed (DropLedger).
            int named = drops.drain(pending);
            pendingFrames += named;
            counters.add(ApiCounter.DROPPED_SENT, named);
        }
    }

    private void encode(ApiFrame frame) {
        ApiFrameCodec.encode(frame, pending);
        pendingFrames++;
    }

    /**
     * Hands the batch's frames, already encoded in one buffer, to the connection's I/O thread as one write and
     * flush: one TCP write per connection per engine batch, not one per delivery (in the daemon the connection
     * lives on the engine's own thread, so the write is made here, with no wake-up of another thread).
     */
    @Override
    public void endOfBatch() {
        if (pending == null) {
            return;
        }
        ByteBuf batch = pending;
        pending = null;
        batchBytes = Math.max(BATCH_BUFFER_BYTES, Math.min(MAX_BATCH_BUFFER_BYTES, batch.readableBytes()));
        counters.add(ApiCounter.FRAMES_OUT, pendingFrames);
        pendingFrames = 0;
        if (!channel.isActive()) {
            batch.release();
            return;
        }
        channel.writeAndFlush(batch, channel.voidPromise());
        // The write is queued for the I/O thread and already counted in the connection's pending bytes.
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        if (buffer != null) {
            counters.raise(ApiCounter.PEAK_OUTBOUND_BYTES, buffer.totalPendingWriteBytes());
        }
    }
}
