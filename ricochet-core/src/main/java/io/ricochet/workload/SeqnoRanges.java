package io.ricochet.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of sequence numbers kept as sorted, disjoint, non-adjacent closed ranges, so that a stream received
 * without gaps costs one range however long it is. Not thread-safe.
 */
public final class SeqnoRanges {
    /** First seqno of each range to its last (inclusive). */
    private final TreeMap<Long, Long> ranges = new TreeMap<>();
    private long count;

    /** Adds {@code seqno}; returns false if it was already in the set. */
    public boolean add(long seqno) {
        if (contains(seqno)) {
            return false;
        }
        addRange(seqno, seqno);
        return true;
    }

    /** Adds every seqno from {@code first} to {@code last}, both included, merging with the ranges it touches. */
    public void addRange(long first, long last) {
        if (first > last) {
            throw new IllegalArgumentException("range [" + first + ", " + last + "] is empty");
        }
        long start = first;
        long end = last;
        Map.Entry<Long, Long> floor = ranges.floorEntry(first);
        if (floor != null && (floor.getValue() >= first || floor.getValue() + 1 == first)) {
            start = floor.getKey();
            end = Math.max(end, floor.getValue());
            remove(floor);
        }
        long touch = end == Long.MAX_VALUE ? end : end + 1;
        for (Map.Entry<Long, Long> next = ranges.ceilingEntry(start); next != null && next.getKey() <= touch;
                next = ranges.ceilingEntry(start)) {
            end = Math.max(end, next.getValue());
            touch = end == Long.MAX_VALUE ? end : end + 1;
            remove(next);
        }
        ranges.put(start, end);
        count += end - start + 1;
    }

    private void remove(Map.Entry<Long, Long> range) {
        ranges.remove(range.getKey());
        count -= range.getValue() - range.getKey() + 1;
    }

    /** Whether {@code seqno} is in the set. */
    public boolean contains(long seqno) {
        Map.Entry<Long, Long> floor = ranges.floorEntry(seqno);
        return floor != null && floor.getValue() >= seqno;
    }

    /** How many seqnos the set holds. */
    public long count() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** How many seqnos are in both this set and {@code other}. */
    public long countCommon(SeqnoRanges other) {
        long common = 0;
        for (Map.Entry<Long, Long> mine : ranges.entrySet()) {
            Long from = other.ranges.floorKey(mine.getKey());
            for (Map.Entry<Long, Long> theirs : other.ranges.subMap(from == null ? mine.getKey() : from, true,
                    mine.getValue(), true).entrySet()) {
                long lo = Math.max(mine.getKey(), theirs.getKey());
                long hi = Math.min(mine.getValue(), theirs.getValue());
                common += Math.max(0, hi - lo + 1);
            }
        }
        return common;
    }

    /** Up to {@code limit} seqnos of this set that {@code other} lacks, smallest first. */
    public List<Long> firstNotIn(SeqnoRanges other, int limit) {
        List<Long> out = new ArrayList<>();
        for (Map.Entry<Long, Long> mine : ranges.entrySet()) {
            long seqno = mine.getKey();
            while (seqno <= mine.getValue() && out.size() < limit) {
                Map.Entry<Long, Long> covering = other.ranges.floorEntry(seqno);
                if (covering != null && covering.getValue() >= seqno) {
                    if (covering.getValue() == Long.MAX_VALUE) {
                        return out;
                    }
                    seqno = covering.getValue() + 1;
                } else {
                    out.add(seqno++);
                }
            }
            if (out.size() >= limit) {
                break;
            }
        }
        return out;
    }

    /** The ranges, smallest first, each as {@code {first, last}}. */
    public List<long[]> ranges() {
        List<long[]> out = new ArrayList<>(ranges.size());
        ranges.forEach((first, last) -> out.add(new long[] {first, last}));
        return out;
    }

    /** A copy. */
    public SeqnoRanges copy() {
        SeqnoRanges copy = new SeqnoRanges();
        copy.ranges.putAll(ranges);
        copy.count = count;
        return copy;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeqnoRanges other && ranges.equals(other.ranges);
    }

    @Override
    public int hashCode() {
        return ranges.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("[");
        ranges.forEach((first, last) -> text.append(text.length() > 1 ? ", " : "").append(first)
                .append(first.equals(last) ? "" : ".." + last));
        return text.append(']').toString();
    }
}
