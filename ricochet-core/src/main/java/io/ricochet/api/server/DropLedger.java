package io.ricochet.api.server;

import io.netty.buffer.ByteBuf;
import io.ricochet.api.MessageId;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.engine.StreamTable;
import java.util.ArrayDeque;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Which messages backpressure dropped for one connection, so that the daemon can name them in DROPPED frames and
 * keep the delivery promise to a slow reader too: each message delivered or reported, never both (docs/api.md,
 * "Backpressure").
 *
 * <p>Drops are held as runs of message ids per stream (origin, group). A drop joins its stream's open run when
 * nothing of that stream can lie between them: a later message of the same datagram, or the first message of the
 * next datagram. The engine hands a datagram's messages one after another, and a connection takes nothing while
 * it drops (the connection {@linkplain #drain drains} the ledger before it takes a frame again), so every message
 * id in a run that exists was dropped. A dropped LOST covers its whole datagram. Under a steady overload each
 * stream's drops form one run until a loss makes a gap.
 *
 * <p>Bounded: at most {@code maxRuns} runs are held; a drop that would need another is only counted
 * ({@link #unnamed}), and the connection's OVERFLOW count still includes it. The engine thread records; the
 * connection's I/O thread or the engine thread drains: every method is synchronized, and drops happen only while
 * a connection is too slow, so the lock is off the delivery path.
 */
final class DropLedger {
    /** Runs held per connection by default: 4096 runs of 32 bytes, about 256 KiB with the map at its worst. */
    static final int DEFAULT_MAX_RUNS = 4096;

    private final int maxRuns;
    private final Long2ObjectHashMap<Run> open = new Long2ObjectHashMap<>();
    private final ArrayDeque<Run> closed = new ArrayDeque<>();
    private final ArrayDeque<Run> spare = new ArrayDeque<>();
    private int held;
    private long unnamed;
    /** Whether any run is held: read without the lock on the delivery path, to skip draining an empty ledger. */
    private volatile boolean empty = true;

    DropLedger(int maxRuns) {
        if (maxRuns < 1) {
            throw new IllegalArgumentException("maxRuns must be at least 1, got " + maxRuns);
        }
        this.maxRuns = maxRuns;
    }

    /**
     * Records that the messages {@code firstId..lastId} of (origin, group) were dropped: one message, or a whole
     * datagram for a dropped LOST. Returns false when no run could hold them (counted in {@link #unnamed}).
     */
    synchronized boolean record(int origin, int group, long firstId, long lastId) {
        long key = StreamTable.key(origin, group);
        Run run = open.get(key);
        if (run != null && run.joinedBy(firstId)) {
            run.lastId = lastId;
            return true;
        }
        if (run != null) {
            open.remove(key);
            closed.add(run);
        }
        if (held == maxRuns) {
            unnamed++;
            return false;
        }
        Run fresh = spare.isEmpty() ? new Run() : spare.poll();
        fresh.set(origin, group, firstId, lastId);
        open.put(key, fresh);
        held++;
        empty = false;
        return true;
    }

    /** Whether no run is held (a hint read without the lock; {@link #drain} is exact). */
    boolean isEmpty() {
        return empty;
    }

    /**
     * Encodes a DROPPED frame for every run held, closed ones first, into {@code out}, and forgets them; returns how
     * many frames it wrote. Later drops start new runs.
     */
    synchronized int drain(ByteBuf out) {
        int frames = held;
        closed.forEach(run -> write(run, out));
        closed.clear();
        open.values().forEach(run -> write(run, out));
        open.clear();
        held = 0;
        empty = true;
        return frames;
    }

    /** Drops no run could name since the ledger was made. */
    synchronized long unnamed() {
        return unnamed;
    }

    /** Encodes {@code run} as a DROPPED frame into {@code out} and keeps the object for a later run. */
    private void write(Run run, ByteBuf out) {
        ApiFrameCodec.encode(new ApiPush.Dropped(run.origin, run.group, run.firstId, run.lastId), out);
        spare.add(run);
    }

    /** One run of dropped message ids of one stream; reused once drained. */
    private static final class Run {
        private int origin;
        private int group;
        private long firstId;
        private long lastId;

        void set(int origin, int group, long firstId, long lastId) {
            this.origin = origin;
            this.group = group;
            this.firstId = firstId;
            this.lastId = lastId;
        }

        /** Whether message {@code id} may extend this run: nothing of the stream can lie between them. */
        boolean joinedBy(long id) {
            long last = MessageId.datagram(lastId);
            long next = MessageId.datagram(id);
            return next == last ? id > lastId : next == last + 1 && MessageId.index(id) == 0;
        }
    }
}
