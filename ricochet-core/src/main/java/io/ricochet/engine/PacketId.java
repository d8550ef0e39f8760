package io.ricochet.engine;

/** The unique id of a data packet: (original sender, group, sequence number), as in the paper's Figure 3. */
public record PacketId(int origin, int group, long seqno) {
    /**
     * A well-mixed hash. The record's default (31-based sums of the fields) gives (g, s) and (g + 1, s - 31) the
     * same hash, so with many streams of consecutive seqnos whole buckets of the packet maps collide.
     */
    @Override
    public int hashCode() {
        long h = seqno * 0x9E3779B97F4A7C15L + StreamTable.key(origin, group) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }

    /** Field by field, written out: the packet maps call it on every lookup (the record's own goes through indy). */
    @Override
    public boolean equals(Object o) {
        return o instanceof PacketId other && other.seqno == seqno && other.origin == origin && other.group == group;
    }

    @Override
    public String toString() {
        return "(" + origin + "," + group + "," + seqno + ")";
    }
}
