package io.ricochet.qsm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The packets this node sent, per group, kept until the token's collective acknowledgement says every member holds
 * them ({@link #releaseBelow}). Bounded per group: a full buffer evicts its oldest packet (counted), which a member
 * that still misses it can then recover only from a peer.
 */
final class SendBuffer {
    /** One group's packets: seqnos {@code base .. base + packets.size() - 1}. */
    private static final class Stream {
        long base;
        final ArrayDeque<byte[]> packets = new ArrayDeque<>();
    }

    private final int capacity;
    private final Counters counters;
    private final Map<Integer, Stream> groups = new HashMap<>();

    SendBuffer(int capacity, Counters counters) {
        this.capacity = capacity;
        this.counters = counters;
    }

    /** Keeps a copy of packet {@code seqno} of {@code group}: the next seqno this node sends there. */
    void put(int group, long seqno, byte[] payload, int offset, int length) {
        Stream s = groups.computeIfAbsent(group, g -> new Stream());
        if (s.packets.isEmpty()) {
            s.base = seqno;
        }
        if (s.packets.size() == capacity) {
            s.packets.removeFirst();
            s.base++;
            counters.increment(EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
        }
        byte[] copy = new byte[length];
        System.arraycopy(payload, offset, copy, 0, length);
        s.packets.addLast(copy);
    }

    /** The payload of {@code seqno} in {@code group}, or null if it is not held. */
    byte[] find(int group, long seqno) {
        Stream s = groups.get(group);
        if (s == null || seqno < s.base || seqno - s.base >= s.packets.size()) {
            return null;
        }
        int index = (int) (seqno - s.base);
        // ArrayDeque has no index access; the buffer is walked from the nearer end (forwards are rare).
        var it = index < s.packets.size() / 2 ? s.packets.iterator() : s.packets.descendingIterator();
        int steps = index < s.packets.size() / 2 ? index : s.packets.size() - 1 - index;
        byte[] p = it.next();
        for (int i = 0; i < steps; i++) {
            p = it.next();
        }
        return p;
    }

    /** Drops the packets of {@code group} below {@code seqno}; returns how many. */
    int releaseBelow(int group, long seqno) {
        Stream s = groups.get(group);
        int released = 0;
        while (s != null && !s.packets.isEmpty() && s.base < seqno) {
            s.packets.removeFirst();
            s.base++;
            released++;
        }
        return released;
    }

    /** The oldest seqno held for {@code group}, or {@code next} (the seqno of the next send) if none is held. */
    long base(int group, long next) {
        Stream s = groups.get(group);
        return s == null || s.packets.isEmpty() ? next : s.base;
    }

    int size(int group) {
        Stream s = groups.get(group);
        return s == null ? 0 : s.packets.size();
    }

    void dropGroup(int group) {
        groups.remove(group);
    }

    /** Packets held in every group. */
    long packets() {
        long n = 0;
        for (Stream s : groups.values()) {
            n += s.packets.size();
        }
        return n;
    }
}
