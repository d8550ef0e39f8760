package io.ricochet.bench.load;

import io.ricochet.engine.StreamTable;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Counts what a sink is handed, per packet id (origin, group, datagram seqno): deliveries and loss notices (LOST,
 * and DROPPED runs) apart,
 * one bit per seqno per stream (origin, group) for each. The same id delivered twice, or reported lost twice, is a
 * duplicate; an id both delivered and reported lost counts as "both". Both break the delivery promise
 * ({@code docs/api.md}, "Delivery guarantees"). Seqnos above {@link Integer#MAX_VALUE} are counted but not checked.
 * {@link #check} tells, against what the senders say they sent, which ids came neither way. Thread-safe: the
 * client's reader thread records, another thread reads totals.
 */
public final class DeliveryCounter {
    private final Map<Long, BitSet> delivered = new HashMap<>();
    private final Map<Long, BitSet> lost = new HashMap<>();
    private long deliveredCount;
    private long lostCount;
    private long droppedCount;
    private long duplicates;
    private long both;
    private long unchecked;

    /**
     * Totals so far; {@code dropped} counts the packets named in DROPPED runs (the daemon dropped them because the
     * sink read too slowly), which the promise counts as reported, with the lost ones.
     */
    public record Totals(long delivered, long lost, long dropped, long duplicates, long both, long unchecked,
                         int streams) {
    }

    /** A message not at index 0 of its datagram: not one a load generator sends; counted as unchecked. */
    public synchronized void notFromALoadGenerator() {
        unchecked++;
        deliveredCount++;
    }

    /** A packet was delivered. */
    public synchronized void delivered(int origin, int group, long seqno) {
        if (record(delivered, lost, origin, group, seqno)) {
            deliveredCount++;
        }
    }

    /** The daemon gave up on a packet. */
    public synchronized void lost(int origin, int group, long seqno) {
        if (record(lost, delivered, origin, group, seqno)) {
            lostCount++;
        }
    }

    /** The daemon dropped packets {@code firstSeqno..lastSeqno} for this sink and said which (DROPPED). */
    public synchronized void dropped(int origin, int group, long firstSeqno, long lastSeqno) {
        for (long seqno = firstSeqno; seqno <= lastSeqno; seqno++) {
            if (record(lost, delivered, origin, group, seqno)) {
                droppedCount++;
            }
        }
    }

    public synchronized Totals totals() {
        Set<Long> streams = new HashSet<>(delivered.keySet());
        streams.addAll(lost.keySet());
        return new Totals(deliveredCount, lostCount, droppedCount, duplicates, both, unchecked, streams.size());
    }

    /**
     * The promise checked for every stream a sender reports: each seqno from 0 to {@code sent - 1} must have been
     * delivered once or reported lost once ({@link PromiseTally}).
     *
     * @param sentPerStream packets sent per stream, keyed by {@link StreamTable#key}
     */
    public synchronized PromiseTally check(Map<Long, Long> sentPerStream) {
        return PromiseTally.of(sentPerStream, delivered, lost, duplicates);
    }

    /** Whether every seqno sent on every stream has been delivered or reported lost. */
    public synchronized boolean allResolved(Map<Long, Long> sentPerStream) {
        return check(sentPerStream).neither() == 0;
    }

    /** Records {@code seqno} in {@code mine}; true if it was new there. */
    private boolean record(Map<Long, BitSet> mine, Map<Long, BitSet> other, int origin, int group, long seqno) {
        if (seqno < 0 || seqno > Integer.MAX_VALUE) {
            unchecked++;
            return true;
        }
        long key = StreamTable.key(origin, group);
        BitSet bits = mine.computeIfAbsent(key, k -> new BitSet());
        int s = (int) seqno;
        if (bits.get(s)) {
            duplicates++;
            return false;
        }
        bits.set(s);
        BitSet others = other.get(key);
        if (others != null && others.get(s)) {
            both++;
        }
        return true;
    }
}
