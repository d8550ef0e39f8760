package io.ricochet.daemon;

import io.ricochet.api.MessageId;
import io.ricochet.engine.Counters;
import io.ricochet.engine.StreamTable;
import java.util.Arrays;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The receiving side of application messages, per (origin, group) stream: what the engine delivers or gives up,
 * datagram by datagram, becomes messages (docs/design/daemon.md, "Fragmentation" and "Ordering").
 * <ul>
 *   <li>A datagram of one or more small messages is handed to unordered subscribers at once.</li>
 *   <li>The fragments of a large message ({@link BundleFormat#FRAGMENT}, consecutive seqnos) are kept until all have
 *       come, and the message is delivered whole, once; if one of them is given up, the message is reported by one
 *       LOST naming its id (its first fragment's), and nothing of it is delivered.</li>
 *   <li>A cursor walks each stream in seqno order from where the engine started it, over datagrams it resolved:
 *       it tells which message a given-up datagram belonged to (the engine knows nothing of its bytes), reports
 *       LOSTs, and releases deliveries to FIFO subscribers in the order the sender's daemon took them.</li>
 * </ul>
 * A datagram given up alone, whose neighbours were given up too, cannot always be told apart from a piece of a
 * fragmented message: it is then reported as a datagram (a LOST naming its seqno's first id), as before
 * fragmentation. Memory is bounded: pieces of messages being reassembled per sender and in total, FIFO deliveries
 * held in total, and the span a cursor may lag. Owned by the engine's event loop.
 */
final class MessageStreams {
    /** Who gets the messages: this node's subscribers. */
    interface Subscribers {
        /** Hands a message to the group's subscribers of {@code audience} ({@link #ALL}, {@link #UNORDERED}, ...). */
        void deliver(int origin, int group, long id, byte[] bytes, int offset, int length, int audience);

        /** Tells every subscriber of the group that message {@code id} will never be delivered. */
        void lost(int origin, int group, long id);

        /** Whether a subscriber of the group takes it in FIFO order. */
        boolean hasFifo(int group);
    }

    /** What the engine says of its streams ({@code ProtocolEngine.streamStart}, {@code streamId}). */
    interface EngineStreams {
        long start(int origin, int group);

        long id(int origin, int group);

        /**
         * Whether the engine resolves every datagram of a stream from its start (delivers it or gives it up); an
         * engine that promises only best effort (ipmc) does not, and its datagrams are handed on as they come.
         */
        boolean resolvesAll();

        /** What {@code engine} says of its streams. */
        static EngineStreams of(io.ricochet.engine.ProtocolEngine engine) {
            return new EngineStreams() {
                @Override
                public long start(int origin, int group) {
                    return engine.streamStart(origin, group);
                }

                @Override
                public long id(int origin, int group) {
                    return engine.streamId(origin, group);
                }

                @Override
                public boolean resolvesAll() {
                    return engine.resolvesEveryDatagram();
                }
            };
        }
    }

    static final int ALL = 0;
    static final int UNORDERED = 1;
    static final int FIFO = 2;

    /** Seqnos a cursor may lag the highest resolved one before its stream is closed and started again there. */
    static final long MAX_LAG = 1 << 17;
    private static final long LOST = -1;
    private static final long DONE = -2;
    private static final long NONE = Long.MIN_VALUE;
    private static final int RECENT_LOST = 16;
    private static final long REFUSAL_LOG_INTERVAL_NS = 60_000_000_000L;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MessageStreams.class);

    private final Subscribers subscribers;
    private final EngineStreams engine;
    private final Counters counters;
    private final java.util.function.LongSupplier clock;
    private final int maxFragments;
    private final long totalBytes;
    private final long perOriginBytes;
    private final long fifoBytes;
    private final Long2ObjectHashMap<Stream> streams = new Long2ObjectHashMap<>();
    private final org.agrona.collections.Int2IntHashMap originBytes = new org.agrona.collections.Int2IntHashMap(0);
    private final Unpack unpack = new Unpack();
    private long reassemblyBytes;
    private long heldBytes;
    private boolean dirty;
    private long lastRefusalLogNs = NONE;
    private long lastOverflowLogNs = NONE;

    /**
     * @param clock          nanoseconds, read when a FIFO delivery is held and released (for the time held)
     * @param maxMessage     the largest message reassembled, in bytes (larger ones are reported LOST)
     * @param maxPayload     the engine's largest datagram payload
     * @param totalBytes     pieces of messages being reassembled, in bytes, at most
     * @param perOriginBytes of those, from one sender at most
     * @param fifoBytes      deliveries held for FIFO subscribers, in bytes, at most
     */
    MessageStreams(Subscribers subscribers, EngineStreams engine, Counters counters,
                   java.util.function.LongSupplier clock, int maxMessage, int maxPayload, long totalBytes,
                   long perOriginBytes, long fifoBytes) {
        this.subscribers = subscribers;
        this.engine = engine;
        this.counters = counters;
        this.clock = clock;
        this.maxFragments = Math.max(2, BundleFormat.fragmentsOf(maxMessage, maxPayload));
        this.totalBytes = totalBytes;
        this.perOriginBytes = perOriginBytes;
        this.fifoBytes = fifoBytes;
    }

    // ------------------------------------------------------------------ from the engine

    /** The engine delivered datagram {@code seqno} of (origin, group). */
    void delivered(int origin, int group, long seqno, byte[] payload, int offset, int length) {
        Stream s = stream(origin, group, seqno);
        if (BundleFormat.isFragment(payload, offset, length)) {
            fragment(s, seqno, payload, offset, length);
            return;
        }
        if (BundleFormat.count(payload, offset, length) == BundleFormat.MALFORMED) {
            counters.increment(DaemonCounter.MALFORMED_DATAGRAMS);
            resolved(s, seqno, LOST);
            return;
        }
        if (seqno < s.cursor || !engine.resolvesAll()) {
            // Best effort, or from an engine that does not say where its streams start, before this node's first
            // datagram: handed on as it comes.
            unpack.deliver(s, seqno, payload, offset, length, ALL);
            return;
        }
        if (seqno == s.cursor && s.open == null && s.ahead.isEmpty()) {
            // In order, nothing pending: every subscriber now (the common case; no state kept).
            unpack.deliver(s, seqno, payload, offset, length, ALL);
            s.cursor++;
            s.highest = Math.max(s.highest, seqno);
            return;
        }
        boolean fifo = subscribers.hasFifo(s.group);
        if (fifo && heldBytes + length > fifoBytes) {
            outOfOrder(s);
            unpack.deliver(s, seqno, payload, offset, length, ALL);
        } else {
            unpack.deliver(s, seqno, payload, offset, length, UNORDERED);
            if (fifo) {
                byte[] replaced = s.held().put(seqno, Arrays.copyOfRange(payload, offset, offset + length));
                heldBytes += length - (replaced == null ? 0 : replaced.length);
                s.heldAt().put(seqno, clock.getAsLong());
                counters.increment(DaemonCounter.FIFO_HELD);
            }
        }
        resolved(s, seqno, DONE);
    }

    /** The engine gave up on datagram {@code seqno} of (origin, group). */
    void lost(int origin, int group, long seqno) {
        if (!engine.resolvesAll()) {
            subscribers.lost(origin, group, MessageId.of(seqno, 0));
            return;
        }
        resolved(stream(origin, group, seqno), seqno, LOST);
    }

    /** Whether a stream may wait for something since the last {@link #sweep}. */
    boolean dirty() {
        return dirty;
    }

    // ------------------------------------------------------------------ streams

    private Stream stream(int origin, int group, long seqno) {
        long key = StreamTable.key(origin, group);
        Stream s = streams.get(key);
        long id = engine.id(origin, group);
        boolean jump = false;
        // A best-effort engine's stream has no cursor to lag (its datagrams are handed on as they come).
        if (s != null && (s.engineId != id || engine.resolvesAll() && seqno - s.cursor > MAX_LAG)) {
            jump = s.engineId == id;
            if (jump) {
                counters.increment(DaemonCounter.MESSAGE_CURSOR_JUMPS);
            }
            finish(s);
            s = null;
        }
        if (s == null) {
            // From where the engine started the stream, unless that is too far behind to walk: after a jump, or
            // when the first news of a stream is that far ahead, from this seqno (what comes before is handed on
            // as it comes).
            long start = engine.start(origin, group);
            boolean walkable = !jump && start >= 0 && seqno - start <= MAX_LAG;
            s = new Stream(origin, group, id, walkable ? Math.min(start, seqno) : seqno);
            streams.put(key, s);
        }
        return s;
    }

    /**
     * Closes the streams the engine replaced or dropped (a sender that restarted, failed or left): what they still
     * waited for will never come, so a message missing pieces is reported LOST and FIFO deliveries held go out.
     * Called from time to time and on membership changes; returns whether a stream still waits for something.
     */
    boolean sweep() {
        dirty = false;
        boolean waiting = false;
        for (Stream s : streams.values().toArray(new Stream[0])) {
            if (engine.id(s.origin, s.group) != s.engineId) {
                finish(s);
                streams.remove(StreamTable.key(s.origin, s.group));
            } else {
                waiting |= !s.isClean();
            }
        }
        return waiting;
    }

    /** Streams held, for tests and stats. */
    int size() {
        return streams.size();
    }

    /** Bytes of message pieces being reassembled. */
    long reassemblyBytes() {
        return reassemblyBytes;
    }

    /** The bytes of pieces the streams hold, counted one by one (for tests: {@link #reassemblyBytes} must agree). */
    long countPieceBytes() {
        long sum = 0;
        for (Stream s : streams.values()) {
            if (s.partials != null) {
                for (Partial p : s.partials.values()) {
                    sum += p.parts == null ? 0 : p.bytes;
                }
            }
        }
        return sum;
    }

    /** Bytes held for FIFO subscribers. */
    long heldBytes() {
        return heldBytes;
    }

    private void finish(Stream s) {
        s.finishing = true;
        advance(s);
        if (s.open != null) {
            close(s, s.open);
            s.open = null;
        }
        // Whatever is left lies beyond the last datagram resolved: messages missing their last pieces.
        if (s.partials != null) {
            for (Partial p : s.partials.values().toArray(new Partial[0])) {
                close(s, p);
            }
        }
        if (s.held != null && !s.held.isEmpty()) {
            // Held for FIFO behind datagrams the cursor never passed: they go now, in seqno order.
            long[] seqnos = s.held.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
            for (long seqno : seqnos) {
                byte[] held = s.held.remove(seqno);
                heldBytes -= held.length;
                heldFor(s.heldAt.remove(seqno));
                unpack.deliver(s, seqno, held, 0, held.length, FIFO);
            }
        }
        s.ahead.clear();
        streams.remove(StreamTable.key(s.origin, s.group));
    }

    // ------------------------------------------------------------------ fragments

    private void fragment(Stream s, long seqno, byte[] payload, int offset, int length) {
        int count = BundleFormat.fragmentCount(payload, offset, length, Integer.MAX_VALUE);
        int index = count == BundleFormat.MALFORMED ? 0 : BundleFormat.fragmentIndex(payload, offset);
        if (count == BundleFormat.MALFORMED || seqno < index) {
            counters.increment(DaemonCounter.MALFORMED_DATAGRAMS);
            resolved(s, seqno, LOST);
            return;
        }
        long first = seqno - index;
        if (!engine.resolvesAll()) {
            keepBestEffort(s, first, count, index, payload, offset + BundleFormat.FRAGMENT_HEADER,
                    length - BundleFormat.FRAGMENT_HEADER);
        } else if (seqno >= s.cursor) {
            keepPiece(s, first, count, index, payload, offset + BundleFormat.FRAGMENT_HEADER,
                    length - BundleFormat.FRAGMENT_HEADER);
            resolved(s, seqno, (long) count << 32 | index);
        } else {
            counters.increment(DaemonCounter.FRAGMENTS_DROPPED);
        }
    }

    private void keepPiece(Stream s, long first, int count, int index, byte[] bytes, int offset, int length) {
        if (first < s.start || first < s.cursor && (s.open == null || s.open.first != first || s.open.dead)) {
            // Its message began before this node's stream, or the cursor passed its beginning without it: the
            // beginning was given up (and reported) or never this node's to have. The cursor may be in the message
            // and the message dead (its first fragment given up before this one came): the piece is useless, and
            // kept in a Partial of its own it would never be released (the cursor closes the open one).
            counters.increment(DaemonCounter.FRAGMENTS_DROPPED);
            return;
        }
        Partial p = s.partials().get(first);
        if (p == null) {
            p = new Partial(first, count, count <= maxFragments);
            s.partials.put(first, p);
            if (count > maxFragments) {
                counters.increment(DaemonCounter.MESSAGES_TOO_LARGE);
                refused(s, p, count + " fragments, more than max-message allows here (" + maxFragments + ")");
            }
        }
        if (p.dead || p.complete) {
            counters.increment(DaemonCounter.FRAGMENTS_DROPPED);
            return;
        }
        if (p.count != count || p.parts[index] != null) {
            counters.increment(DaemonCounter.MALFORMED_DATAGRAMS);
            kill(s, p);
            return;
        }
        int fromOrigin = originBytes.get(s.origin);
        if (reassemblyBytes + length > totalBytes || fromOrigin + (long) length > perOriginBytes) {
            counters.increment(DaemonCounter.REASSEMBLY_OVERFLOWS);
            refused(s, p, reassemblyBytes + length > totalBytes ? "reassembly-buffer is full (" + totalBytes
                    + " bytes)" : "its sender holds its share of reassembly-buffer (" + perOriginBytes + " bytes)");
            return;
        }
        p.parts[index] = Arrays.copyOfRange(bytes, offset, offset + length);
        p.bytes += length;
        reassemblyBytes += length;
        originBytes.put(s.origin, fromOrigin + length);
        if (++p.received == count) {
            complete(s, p);
        }
    }

    /**
     * A piece of a message from an engine that does not resolve every datagram: a message missing a piece is never
     * reported, and the oldest of the sender's messages give way when memory is short.
     */
    private void keepBestEffort(Stream s, long first, int count, int index, byte[] bytes, int offset, int length) {
        while (s.partials != null && !s.partials.isEmpty() && (reassemblyBytes + length > totalBytes
                || originBytes.get(s.origin) + (long) length > perOriginBytes)) {
            long oldest = Long.MAX_VALUE;
            for (Partial p : s.partials.values()) {
                oldest = Math.min(oldest, p.first);
            }
            if (oldest == first) {
                break;
            }
            counters.increment(DaemonCounter.REASSEMBLY_OVERFLOWS);
            release(s, s.partials.remove(oldest));
        }
        keepPiece(s, first, count, index, bytes, offset, length);
        Partial p = s.partials == null ? null : s.partials.get(first);
        if (p != null && (p.complete || p.dead)) {
            s.partials.remove(first);
        }
    }

    private void complete(Stream s, Partial p) {
        byte[] whole = new byte[Math.toIntExact(p.bytes)];
        int at = 0;
        for (byte[] part : p.parts) {
            System.arraycopy(part, 0, whole, at, part.length);
            at += part.length;
        }
        release(s, p);
        p.complete = true;
        counters.increment(DaemonCounter.MESSAGES_REASSEMBLED);
        long id = MessageId.of(p.first, 0);
        boolean fifo = engine.resolvesAll() && subscribers.hasFifo(s.group);
        if (fifo && heldBytes + whole.length > fifoBytes) {
            outOfOrder(s);
            subscribers.deliver(s.origin, s.group, id, whole, 0, whole.length, ALL);
        } else {
            subscribers.deliver(s.origin, s.group, id, whole, 0, whole.length, UNORDERED);
            if (fifo) {
                p.whole = whole;
                p.heldAtNs = clock.getAsLong();
                heldBytes += whole.length;
                counters.increment(DaemonCounter.FIFO_HELD);
            }
        }
    }

    /** A delivery handed to FIFO subscribers out of order: fifo-buffer is full. Counted, and logged once a minute. */
    private void outOfOrder(Stream s) {
        counters.increment(DaemonCounter.FIFO_OUT_OF_ORDER);
        long now = clock.getAsLong();
        if (lastOverflowLogNs == NONE || now - lastOverflowLogNs >= REFUSAL_LOG_INTERVAL_NS) {
            lastOverflowLogNs = now;
            LOG.warn("fifo-buffer is full ({} bytes held): a message of node {} in group {} goes to FIFO subscribers "
                    + "out of order (counted in FIFO_OUT_OF_ORDER; this line at most once a minute)", heldBytes,
                    s.origin, s.group);
        }
    }

    /** A message this node will not reassemble: reported LOST now, and the reason logged (once a minute at most). */
    private void refused(Stream s, Partial p, String reason) {
        kill(s, p);
        long now = clock.getAsLong();
        if (lastRefusalLogNs == NONE || now - lastRefusalLogNs >= REFUSAL_LOG_INTERVAL_NS) {
            lastRefusalLogNs = now;
            LOG.warn("message {} of node {} in group {} reported LOST: {} (counted in REASSEMBLY_OVERFLOWS and "
                    + "MESSAGES_TOO_LARGE; this line at most once a minute)", MessageId.of(p.first, 0), s.origin,
                    s.group, reason);
        }
    }

    /** The message will not be delivered: one LOST names it (unless it began before this node's stream). */
    private void kill(Stream s, Partial p) {
        if (p.complete) {
            return;
        }
        p.dead = true;
        release(s, p);
        if (!p.reported && p.first >= s.start && !s.wasReported(p.first)) {
            p.reported = true;
            s.reported(p.first);
            subscribers.lost(s.origin, s.group, MessageId.of(p.first, 0));
            counters.increment(DaemonCounter.MESSAGES_LOST);
        }
    }

    private void release(Stream s, Partial p) {
        if (p.parts == null) {
            return;
        }
        reassemblyBytes -= p.bytes;
        int left = originBytes.get(s.origin) - (int) p.bytes;
        if (left == 0) {
            originBytes.remove(s.origin);
        } else {
            originBytes.put(s.origin, left);
        }
        p.parts = null;
    }

    /** The cursor has passed the message, or its stream ends: FIFO gets it whole, or its LOST is reported. */
    private void close(Stream s, Partial p) {
        if (p.complete) {
            if (p.whole != null) {
                heldBytes -= p.whole.length;
                heldFor(p.heldAtNs);
                subscribers.deliver(s.origin, s.group, MessageId.of(p.first, 0), p.whole, 0, p.whole.length, FIFO);
                p.whole = null;
            }
        } else {
            kill(s, p);
        }
        if (s.partials != null) {
            s.partials.remove(p.first);
        }
    }

    /** A FIFO delivery held since {@code sinceNs} goes out now: its time held is counted. */
    private void heldFor(long sinceNs) {
        if (sinceNs == NONE) {
            return;
        }
        long us = Math.max(0, clock.getAsLong() - sinceNs) / 1_000;
        counters.add(DaemonCounter.FIFO_HELD_US, us);
        counters.max(DaemonCounter.FIFO_HELD_PEAK_US, us);
    }

    // ------------------------------------------------------------------ the cursor

    private void resolved(Stream s, long seqno, long code) {
        if (seqno < s.cursor) {
            if (code == LOST) {
                // Only from an engine that does not say where its streams start.
                subscribers.lost(s.origin, s.group, MessageId.of(seqno, 0));
            }
            return;
        }
        s.ahead.put(seqno, code);
        dirty = true;
        s.highest = Math.max(s.highest, seqno);
        advance(s);
    }

    /** Walks the cursor over every resolved datagram it can (docs/design/daemon.md, "Fragmentation"). */
    private void advance(Stream s) {
        while (true) {
            long c = s.cursor;
            long code = s.ahead.get(c);
            if (code == NONE) {
                if (!s.finishing || c > s.highest) {
                    return;
                }
                // Closing the stream: a datagram never resolved here will not be.
                if (s.open != null) {
                    close(s, s.open);
                    s.open = null;
                }
                s.cursor = c + 1;
                continue;
            }
            Partial open = s.open;
            if (open != null && !within(s, open, c, code)) {
                close(s, open);
                s.open = null;
                continue;
            }
            if (open == null) {
                if (code == DONE) {
                    byte[] held = s.held == null ? null : s.held.remove(c);
                    if (held != null) {
                        heldBytes -= held.length;
                        heldFor(s.heldAt.remove(c));
                        unpack.deliver(s, c, held, 0, held.length, FIFO);
                    }
                } else if (code == LOST) {
                    // A boundary: the datagram began a unit, alone or as a message's first fragment; either way this
                    // is the id to name.
                    Partial p = s.partials == null ? null : s.partials.get(c);
                    if (p == null) {
                        p = new Partial(c, 0, false);
                    }
                    kill(s, p);
                    s.open = p;
                } else {
                    int count = (int) (code >>> 32);
                    long first = c - (int) code;
                    Partial p = s.partials().get(first);
                    if (p == null) {
                        p = new Partial(first, count, false);
                        p.dead = true;
                        p.reported = first < s.start;
                    }
                    if (first < c) {
                        kill(s, p);
                    }
                    s.open = p;
                }
            }
            if (s.waits()) {
                return;
            }
            s.ahead.remove(c);
            s.cursor = c + 1;
            Partial now = s.open;
            if (now != null && now.count > 0 && s.cursor == now.first + now.count) {
                close(s, now);
                s.open = null;
            }
        }
    }

    /**
     * Whether resolved datagram {@code c} belongs to the open message; a given-up one inside a message with a known
     * count kills it. For an open message of unknown count (its first fragment was given up), a given-up datagram
     * is inside only if a later fragment of the message shows it; {@link Stream#waits} holds the cursor while
     * datagrams between are still unresolved.
     */
    private boolean within(Stream s, Partial open, long c, long code) {
        s.waitFor = false;
        if (code == DONE) {
            return false;
        }
        if (code == LOST) {
            if (open.count > 0) {
                kill(s, open);
                return true;
            }
            // The first datagram after the run of given-up ones that c begins or continues; kept for the rest of
            // the run (each of its datagrams would find the same one: a scan each would be quadratic in the run).
            if (c >= s.scanEnd) {
                long k = c + 1;
                while (s.ahead.get(k) == LOST) {
                    k++;
                }
                s.scanEnd = k;
            }
            long k = s.scanEnd;
            long next = s.ahead.get(k);
            if (next == NONE) {
                if (k <= s.highest && !s.finishing) {
                    s.waitFor = true;
                    return true;
                }
                return false;
            }
            if (next == LOST) {
                s.scanEnd = -1; // given up since the scan: look further next time
                s.waitFor = true;
                return true;
            }
            return next != DONE && k - (int) next == open.first;
        }
        long first = c - (int) code;
        if (first != open.first) {
            return false;
        }
        if (open.count == 0) {
            open.count = (int) (code >>> 32);
        }
        return true;
    }

    // ------------------------------------------------------------------ state

    /** A message being reassembled, or passed by the cursor. */
    private static final class Partial {
        final long first;
        /** Fragments of the message; 0 while unknown (only its given-up datagrams seen). */
        int count;
        byte[][] parts;
        long bytes;
        int received;
        boolean complete;
        boolean dead;
        boolean reported;
        /** The whole message, held for FIFO subscribers until the cursor passes it, and since when. */
        byte[] whole;
        long heldAtNs;

        /** @param pieces whether to make room for the pieces: a message to reassemble, not one known lost */
        Partial(long first, int count, boolean pieces) {
            this.first = first;
            this.count = count;
            this.parts = pieces ? new byte[count][] : null;
        }
    }

    private static final class Stream {
        final int origin;
        final int group;
        final long engineId;
        final long start;
        /** The next seqno to walk over: every one below is passed. */
        long cursor;
        /** The highest seqno resolved. */
        long highest;
        /** Resolved datagrams at or above the cursor: {@link #LOST}, {@link #DONE} or a fragment's (count, index). */
        final Long2LongHashMap ahead = new Long2LongHashMap(NONE);
        Long2ObjectHashMap<byte[]> held;
        /** When each held datagram was held. */
        Long2LongHashMap heldAt;
        Long2ObjectHashMap<Partial> partials;
        /** The message the cursor is in, or null at a boundary. */
        Partial open;
        /** Ids of messages named in a LOST lately, by first seqno. */
        long[] recentLost;
        int recentAt;
        boolean waitFor;
        boolean finishing;
        /** Where the last scan for the end of a run of given-up datagrams stopped (the seqnos before it: given up). */
        long scanEnd = -1;

        Stream(int origin, int group, long engineId, long start) {
            this.origin = origin;
            this.group = group;
            this.engineId = engineId;
            this.start = start;
            this.cursor = start;
            this.highest = start - 1;
        }

        boolean waits() {
            boolean wait = waitFor;
            waitFor = false;
            return wait;
        }

        Long2ObjectHashMap<byte[]> held() {
            if (held == null) {
                held = new Long2ObjectHashMap<>();
            }
            return held;
        }

        Long2LongHashMap heldAt() {
            if (heldAt == null) {
                heldAt = new Long2LongHashMap(NONE);
            }
            return heldAt;
        }

        Long2ObjectHashMap<Partial> partials() {
            if (partials == null) {
                partials = new Long2ObjectHashMap<>();
            }
            return partials;
        }

        /**
         * Whether closing the stream now would change nothing subscribers get. A message the cursor is in that was
         * already reported LOST (a given-up datagram last resolved, as at the end of a stream) waits for nothing.
         */
        boolean isClean() {
            return (open == null || open.dead && open.reported) && ahead.isEmpty()
                    && (partials == null || partials.isEmpty());
        }

        void reported(long first) {
            if (recentLost == null) {
                recentLost = new long[RECENT_LOST];
                Arrays.fill(recentLost, -1);
            }
            recentLost[recentAt++ % RECENT_LOST] = first;
        }

        boolean wasReported(long first) {
            if (recentLost != null) {
                for (long id : recentLost) {
                    if (id == first) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** Hands the messages of a datagram to an audience. One instance: nothing allocated per datagram. */
    private final class Unpack implements BundleFormat.Messages {
        private Stream stream;
        private long seqno;
        private int audience;

        void deliver(Stream s, long seqno, byte[] payload, int offset, int length, int audience) {
            this.stream = s;
            this.seqno = seqno;
            this.audience = audience;
            BundleFormat.forEach(payload, offset, length, this);
        }

        @Override
        public void message(int index, byte[] buffer, int offset, int length) {
            subscribers.deliver(stream.origin, stream.group, MessageId.of(seqno, index), buffer, offset, length,
                    audience);
        }
    }
}
