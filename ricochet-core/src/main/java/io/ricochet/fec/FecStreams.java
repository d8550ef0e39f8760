package io.ricochet.fec;

import io.ricochet.engine.ReceiveWindow;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Receive state per (sender, group) stream, and the member lists it is started from, with Ricochet's rules
 * ({@code docs/design/lec.md}, "Stream start and incarnations"): a stream starts at seqno 0 when this node, already
 * in the group, saw the sender join, so even its first packets can be recovered; otherwise at the first seqno
 * seen. A JOIN with a new incarnation is a restarted sender whose stream starts again at 0.
 */
final class FecStreams {
    /** One stream: which of its seqnos are resolved (delivered or given up). */
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
    private final Map<Integer, Set<Integer>> members = new HashMap<>();
    private final Map<Integer, Long> incarnations = new HashMap<>();

    FecStreams(int maxWindow) {
        this.maxWindow = maxWindow;
    }

    static long key(int origin, int group) {
        return ((long) origin << 32) | (group & 0xFFFFFFFFL);
    }

    /**
     * {@code node} joined {@code group}. Returns true if that replaced an existing stream (a restarted sender):
     * state kept for the old one must be dropped.
     */
    boolean joined(int node, int group, long incarnation, boolean selfIsMember) {
        boolean fresh = members.computeIfAbsent(group, g -> new HashSet<>()).add(node);
        incarnations.put(node, incarnation);
        if (!selfIsMember) {
            return false; // Listed before we joined: its stream starts at the first packet we see.
        }
        long key = key(node, group);
        Stream stream = streams.get(key);
        if (stream == null ? fresh : stream.incarnation != incarnation) {
            streams.put(key, new Stream(node, group, incarnation, 0, maxWindow));
            return stream != null;
        }
        return false;
    }

    void left(int node, int group) {
        Set<Integer> set = members.get(group);
        if (set != null) {
            set.remove(node);
        }
    }

    /** The stream of (origin, group), created on first sight with {@code firstSeen} as its first seqno. */
    Stream get(int origin, int group, long firstSeen) {
        long key = key(origin, group);
        Stream stream = streams.get(key);
        if (stream == null) {
            stream = new Stream(origin, group, incarnations.getOrDefault(origin, 0L),
                    ReceiveWindow.baseForFirstSeen(firstSeen), maxWindow);
            streams.put(key, stream);
        }
        return stream;
    }

    /** The stream of (origin, group), or null if none was started. */
    Stream find(int origin, int group) {
        return streams.get(key(origin, group));
    }

    int size() {
        return streams.size();
    }
}
