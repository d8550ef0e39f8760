package io.ricochet.engine;

import java.util.HashMap;
import java.util.Map;

/**
 * Receive state per (sender, group) stream at one node, with the rules every protocol that delivers on arrival
 * shares ({@code docs/design/lec.md}, "Stream start and incarnations"):
 * <ul>
 *   <li>a stream starts at seqno 0 when this node, already a member of the group, saw the sender join
 *       ({@link #joined}), so even the sender's first packets can be recovered;</li>
 *   <li>otherwise it starts where a packet first shows it ({@link #getOrCreate}, by
 *       {@link ReceiveWindow#baseForFirstSeen}): no recovery of history this node never had;</li>
 *   <li>a JOIN with another incarnation is a restarted sender whose stream starts again at 0; a flap of the same
 *       incarnation keeps the stream, so nothing is delivered twice.</li>
 * </ul>
 */
public final class StreamTable {
    /** One stream: which of its seqnos are resolved (delivered or given up). */
    public static final class Stream {
        private final int origin;
        private final int group;
        private final long incarnation;
        private final ReceiveWindow window;

        Stream(int origin, int group, long incarnation, long base, int maxWindow) {
            this.origin = origin;
            this.group = group;
            this.incarnation = incarnation;
            this.window = new ReceiveWindow(base, maxWindow);
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
    }

    private final int maxWindow;
    private final Map<Long, Stream> streams = new HashMap<>();
    private final Map<Integer, Long> incarnations = new HashMap<>();

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

    /** The stream, created with {@code firstSeen} as the first seqno a packet showed if this node has none. */
    public Stream getOrCreate(int origin, int group, long firstSeen) {
        long key = key(origin, group);
        Stream stream = streams.get(key);
        if (stream == null) {
            stream = new Stream(origin, group, incarnations.getOrDefault(origin, 0L),
                    ReceiveWindow.baseForFirstSeen(firstSeen), maxWindow);
            streams.put(key, stream);
        }
        return stream;
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
        incarnations.put(origin, incarnation);
        if (!selfIsMember) {
            return null;
        }
        long key = key(origin, group);
        Stream stream = streams.get(key);
        if (stream == null ? fresh : stream.incarnation != incarnation) {
            streams.put(key, new Stream(origin, group, incarnation, 0, maxWindow));
            return stream;
        }
        return null;
    }

    /** Streams held. */
    public int size() {
        return streams.size();
    }
}
