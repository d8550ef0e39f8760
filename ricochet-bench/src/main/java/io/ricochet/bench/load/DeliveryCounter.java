package io.ricochet.bench.load;

import io.ricochet.engine.StreamTable;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts what a sink is handed and checks that no packet id (origin, group, seqno) comes twice: a delivery or a
 * loss notice for an id already seen is a duplicate. One bit per seqno per stream (origin, group); seqnos above
 * {@link Integer#MAX_VALUE} are counted but not checked. Thread-safe: the client's reader thread records, another
 * thread reads totals.
 */
public final class DeliveryCounter {
    private final Map<Long, BitSet> seen = new HashMap<>();
    private long delivered;
    private long lost;
    private long duplicates;
    private long unchecked;

    /** Totals so far. */
    public record Totals(long delivered, long lost, long duplicates, long unchecked, int streams) {
    }

    /** A packet was delivered. */
    public synchronized void delivered(int origin, int group, long seqno) {
        if (firstSight(origin, group, seqno)) {
            delivered++;
        }
    }

    /** The daemon gave up on a packet. */
    public synchronized void lost(int origin, int group, long seqno) {
        if (firstSight(origin, group, seqno)) {
            lost++;
        }
    }

    public synchronized Totals totals() {
        return new Totals(delivered, lost, duplicates, unchecked, seen.size());
    }

    private boolean firstSight(int origin, int group, long seqno) {
        if (seqno < 0 || seqno > Integer.MAX_VALUE) {
            unchecked++;
            return true;
        }
        BitSet bits = seen.computeIfAbsent(StreamTable.key(origin, group), k -> new BitSet());
        if (bits.get((int) seqno)) {
            duplicates++;
            return false;
        }
        bits.set((int) seqno);
        return true;
    }
}
