package io.ricochet.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Receive state per (sender, group) stream at one node, with the rules every protocol that delivers on arrival
 * shares ({@code docs/design/lec.md}, "Stream start and incarnations"):
 * <ul>
 *   <li>a stream starts at seqno 0 when this node, already a member of the group, saw the sender join
 *       ({@link #joined}), so even the sender's first packets can be recovered;</li>
 *   <li>otherwise it starts where a packet first shows it ({@link #getOrCreate}, by
 *       {@link ReceiveWindow#baseForFirstSeen}): no recovery of history this node never had;</li>
 *   <li>a JOIN with another incarnation is a restarted sender whose stream starts again at 0; a flap of the same
 *       incarnation keeps the stream, so nothing is delivered twice;</li>
 *   <li>a stream whose sender left or failed is {@link #retire retired}: kept a while (its tail may still be
 *       discovered and its losses given up) and then {@link #pruneDue pruned}, unless the sender comes back first.
 *       So the table holds streams of current members only, and state cannot grow with senders that came and
 *       went.</li>
 * </ul>
 */
public final class StreamTable {
    /** One stream: which of its seqnos are resolved (delivered or given up). */
    public static final class Stream {
        private final int origin;
        private final int group;
        private final long incarnation;
        private final ReceiveWindow window;
        /** This stream's number at this node: a stream that replaces another of (origin, group) has another. */
        private final long id;
        /** The first seqno this node resolves (delivers or gives up): every one from here on is resolved. */
        private final long start;
        /**
         * The last base and progress this node told the sender (a STABLE), and whether one may be due (see
         * StabilityReporter).
         */
        private long reportedBase = -1;
        private long reportedProgress = -1;
        private boolean reportPending;

        Stream(long id, int origin, int group, long incarnation, long base, int maxWindow) {
            this.id = id;
            this.start = base;
            this.origin = origin;
            this.group = group;
            this.incarnation = incarnation;
            this.window = new ReceiveWindow(base, maxWindow);
        }

        /** Marks the stream for the next report; false if it already was. */
        public boolean markForReport() {
            if (reportPending) {
                return false;
            }
            reportPending = true;
            return true;
        }

        /**
         * Clears the mark; returns whether the base or the progress moved since the last report, and if so takes them
         * as reported ({@link #reportedBase}, {@link #reportedProgress}).
         */
        public boolean takeReport() {
            reportPending = false;
            long base = window.base();
            long progress = Math.max(base, window.highest() + 1);
            if (base <= reportedBase && progress <= reportedProgress) {
                return false;
            }
            reportedBase = base;
            reportedProgress = progress;
            return true;
        }

        /** Every seqno below this one is resolved (delivered or given up), as last reported. */
        public long reportedBase() {
            return reportedBase;
        }

        /** Every seqno below this one has arrived or is known missing, as last reported. */
        public long reportedProgress() {
            return reportedProgress;
        }

        public int origin() {
            return origin;
        }

        public int group() {
            return group;
        }

        /** The sender's incarnation this stream belongs to. */
        public long incarnation() {
            return incarnation;
        }

        public ReceiveWindow window() {
            return window;
        }

        /** This stream's number at this node (docs/design/daemon.md, "Fragmentation"). */
        public long id() {
            return id;
        }

        /** The first seqno this node resolves: where the stream started here. */
        public long start() {
            return start;
        }
    }

    /** Whether the GMS lists {@code node} in {@code group} (asked only before a stream is created). */
    @FunctionalInterface
    public interface Roster {
        boolean isListed(int group, int node);
    }

    /** What happens to a stream's remaining state when it is pruned. */
    @FunctionalInterface
    public interface Pruning {
        void pruned(int origin, int group);
    }

    private final int maxWindow;
    private final Long2ObjectHashMap<Stream> streams = new Long2ObjectHashMap<>();
    /** Retired streams and when each is pruned, in retirement order (every retirement waits the same delay). */
    private final java.util.LinkedHashMap<Long, Long> retired = new java.util.LinkedHashMap<>();
    private final Map<Integer, Long> incarnations = new HashMap<>();
    /** The number the next stream created gets. */
    private long nextId;

    /** @param maxWindow seqnos a stream's window may span above its oldest unresolved one */
    public StreamTable(int maxWindow) {
        this.maxWindow = maxWindow;
    }

    /** The one key of a (sender, group) stream, for every map keyed by stream. */
    public static long key(int origin, int group) {
        return ((long) origin << 32) | (group & 0xFFFFFFFFL);
    }

    /** The stream, or null if this node has none. */
    public Stream find(int origin, int group) {
        return streams.get(key(origin, group));
    }

    /** The first seqno this node resolves of (origin, group)'s stream, or -1 if it has none. */
    public long startOf(int origin, int group) {
        Stream stream = find(origin, group);
        return stream == null ? -1 : stream.start;
    }

    /** The number of (origin, group)'s stream at this node, or -1 if it has none. */
    public long idOf(int origin, int group) {
        Stream stream = find(origin, group);
        return stream == null ? -1 : stream.id;
    }

    /** The stream, created with {@code firstSeen} as the first seqno a packet showed if this node has none. */
    public Stream getOrCreate(int origin, int group, long firstSeen) {
        long key = key(origin, group);
        Stream stream = streams.get(key);
        if (stream == null) {
            stream = new Stream(nextId++, origin, group, incarnations.getOrDefault(origin, 0L),
                    ReceiveWindow.baseForFirstSeen(firstSeen), maxWindow);
            streams.put(key, stream);
        }
        return stream;
    }

    /**
     * The stream, created with {@code base} as its first seqno if this node has none: where its sender said this
     * node's join took effect (a JOIN_POINT, {@code io.ricochet.nak.JoinPoints}).
     */
    public Stream startAt(int origin, int group, long base) {
        long key = key(origin, group);
        Stream stream = streams.get(key);
        if (stream == null) {
            stream = new Stream(nextId++, origin, group, incarnations.getOrDefault(origin, 0L), base, maxWindow);
            streams.put(key, stream);
        }
        return stream;
    }

    /** Removes the stream of (origin, group) at once, retired or not; returns whether there was one. */
    public boolean drop(int origin, int group) {
        long key = key(origin, group);
        retired.remove(key);
        return streams.remove(key) != null;
    }

    /**
     * As {@link #getOrCreate(int, int, long)}, but a new stream only for a sender {@code roster} lists in the group;
     * otherwise null, counted as {@code UNLISTED_ORIGINS}, so a frame from a stranger costs no state. The roster is
     * asked only when there is no stream yet.
     */
    public Stream getOrCreateListed(int origin, int group, long firstSeen, Roster roster, Counters counters) {
        Stream stream = streams.get(key(origin, group));
        if (stream != null) {
            return stream;
        }
        if (!roster.isListed(group, origin)) {
            counters.increment(EngineCounter.UNLISTED_ORIGINS);
            return null;
        }
        return getOrCreate(origin, group, firstSeen);
    }

    /**
     * The GMS reported {@code origin} (incarnation {@code incarnation}) joining {@code group}. If this node is a
     * member, a stream it has not seen ({@code fresh}: the sender was not listed in the group) or a restarted sender
     * starts at 0. Returns the stream a restart replaced (its state must be dropped), or null.
     *
     * @param fresh        whether the JOIN added the sender to this node's list of the group's members
     * @param selfIsMember whether this node is a member of the group; if not, the sender was there before us and
     *                     its stream starts at the first packet seen
     */
    public Stream joined(int origin, int group, long incarnation, boolean fresh, boolean selfIsMember) {
        return joined(origin, group, incarnation, fresh, selfIsMember, 0);
    }

    /**
     * As {@link #joined(int, int, long, boolean, boolean)}, with the seqno the new stream starts at: {@code start}, or
     * no stream at all if {@code start} is negative (the sender will say where: a join point). Whether a stream was
     * to start here then shows as no stream held after a fresh JOIN or a restart.
     */
    public Stream joined(int origin, int group, long incarnation, boolean fresh, boolean selfIsMember, long start) {
        incarnations.put(origin, incarnation);
        retired.remove(key(origin, group));
        if (!selfIsMember) {
            return null;
        }
        long key = key(origin, group);
        Stream stream = streams.get(key);
        if (stream == null ? fresh : stream.incarnation != incarnation) {
            if (start >= 0) {
                streams.put(key, new Stream(nextId++, origin, group, incarnation, start, maxWindow));
            } else {
                streams.remove(key);
            }
            return stream;
        }
        return null;
    }

    /**
     * The sender of (origin, group) left or failed, or this node left the group: the stream is pruned at
     * {@code pruneAtNs} unless {@link #joined} brings the sender back first. Nothing if there is no such stream.
     */
    public void retire(int origin, int group, long pruneAtNs) {
        long key = key(origin, group);
        if (streams.containsKey(key)) {
            retired.remove(key);
            retired.put(key, pruneAtNs);
        }
    }

    /** Retires every stream of {@code group} (this node left it). */
    public void retireGroup(int group, long pruneAtNs) {
        for (Stream stream : List.copyOf(streams.values())) {
            if (stream.group == group) {
                retire(stream.origin, group, pruneAtNs);
            }
        }
    }

    /** Removes the retired streams due at {@code nowNs}, telling {@code pruning} of each first. */
    public void pruneDue(long nowNs, Pruning pruning) {
        for (var it = retired.entrySet().iterator(); it.hasNext(); ) {
            var entry = it.next();
            if (entry.getValue() - nowNs > 0) {
                return;
            }
            it.remove();
            Stream stream = streams.get(entry.getKey());
            if (stream != null) {
                pruning.pruned(stream.origin, stream.group);
                streams.remove(entry.getKey().longValue());
            }
        }
    }

    /** When the next retired stream is due to be pruned, or {@link Long#MAX_VALUE}. */
    public long nextPruneNs() {
        return retired.isEmpty() ? Long.MAX_VALUE : retired.values().iterator().next();
    }

    /** Streams held. */
    public int size() {
        return streams.size();
    }
}
