package io.ricochet.srm;

import io.ricochet.engine.ReceiveWindow;
import java.util.HashMap;
import java.util.Map;

/**
 * Receive state per (sender, group) stream: a {@link ReceiveWindow} of resolved seqnos and the highest one known
 * to exist. A stream starts at seqno 0 when this node saw the sender join while it was itself a member (or saw a new
 * incarnation of the sender join); otherwise at the first seqno a data packet or repair carries. Control frames
 * (requests, session messages) never create a stream: they cannot make this node ask for history it never had.
 */
final class StreamTable {
    /** One stream's state. */
    static final class Stream {
        final int origin;
        final int group;
        final long incarnation;
        final ReceiveWindow window;

        Stream(int origin, int group, long incarnation, long base, int maxWindow) {
            this.origin = origin;
            this.group = group;
            this.incarnation = incarnation;
            this.window = new ReceiveWindow(base, maxWindow);
        }
    }

    private final int maxWindow;
    private final Map<Long, Stream> streams = new HashMap<>();
    private final Map<Integer, Long> incarnations = new HashMap<>();

    StreamTable(int maxWindow) {
        this.maxWindow = maxWindow;
    }

    private static long key(int origin, int group) {
        return ((long) origin << 32) | (group & 0xFFFFFFFFL);
    }

    /** The stream, or null if this node has none. */
    Stream get(int origin, int group) {
        return streams.get(key(origin, group));
    }

    /** The stream, created with {@code firstSeen} as its first seqno if this node has none. */
    Stream getOrCreate(int origin, int group, long firstSeen) {
        return streams.computeIfAbsent(key(origin, group),
                k -> new Stream(origin, group, incarnations.getOrDefault(origin, 0L),
                        ReceiveWindow.baseForFirstSeen(firstSeen), maxWindow));
    }

    /**
     * The GMS reported {@code origin} joining {@code group}. If this node is a member, a stream it has not seen
     * ({@code fresh}) or a restarted sender (another incarnation) starts at 0; a flap of the same incarnation keeps
     * the stream, so nothing is delivered twice. Returns the stream a restart replaced, or null.
     */
    Stream joined(int origin, int group, long incarnation, boolean fresh, boolean selfIsMember) {
        incarnations.put(origin, incarnation);
        if (!selfIsMember) {
            return null;
        }
        Stream stream = get(origin, group);
        if (stream == null ? fresh : stream.incarnation != incarnation) {
            streams.put(key(origin, group), new Stream(origin, group, incarnation, 0, maxWindow));
            return stream;
        }
        return null;
    }

    int size() {
        return streams.size();
    }
}
