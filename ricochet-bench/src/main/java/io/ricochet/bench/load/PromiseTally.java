package io.ricochet.bench.load;

import java.util.BitSet;
import java.util.Map;

/**
 * The delivery promise checked at a sink against what the senders sent ({@code docs/api.md}, "Delivery
 * guarantees"): for every stream (origin, group) a sender reports, every seqno from 0 to the last it sent is
 * delivered exactly once or reported exactly once, never both, never neither: reported LOST, or named in a DROPPED
 * run because the sink read too slowly (docs/api.md, "Backpressure"). Ids the sink saw that no sender
 * reports sending (a stream not listed, or a seqno past the count) are counted apart as {@code unexpected}.
 *
 * @param streams      streams the senders reported
 * @param expected     packets the senders reported sending on them
 * @param delivered    of those, delivered only
 * @param lost         of those, reported lost (LOST or DROPPED) only
 * @param both         of those, delivered and reported lost (must be 0)
 * @param neither      of those, neither delivered nor reported lost (must be 0)
 * @param duplicates   ids delivered twice or reported lost twice, on any stream (must be 0)
 * @param unexpected   ids delivered or reported lost that no sender reports sending
 * @param streamsShort streams with at least one seqno neither delivered nor reported lost
 * @param neitherTail  of {@code neither}, those above every seqno of their stream the sink heard of: a tail the
 *                     receiver never learnt existed (e.g. its SESSION announcement was dropped)
 */
public record PromiseTally(int streams, long expected, long delivered, long lost, long both, long neither,
                           long duplicates, long unexpected, int streamsShort, long neitherTail) {

    /** Whether the promise held: no id came both ways, none came neither way, none came twice. */
    public boolean kept() {
        return both == 0 && neither == 0 && duplicates == 0;
    }

    /**
     * Counts the promise over bit sets of the seqnos delivered and reported lost per stream.
     *
     * @param sentPerStream packets sent per stream key; seqnos 0 .. n - 1 are expected
     * @param delivered     seqnos delivered, per stream key
     * @param lost          seqnos reported lost, per stream key
     * @param duplicates    ids seen twice the same way, as counted while recording
     */
    static PromiseTally of(Map<Long, Long> sentPerStream, Map<Long, BitSet> delivered, Map<Long, BitSet> lost,
                           long duplicates) {
        long expected = 0;
        long deliveredOnly = 0;
        long lostOnly = 0;
        long both = 0;
        long neither = 0;
        long unexpected = 0;
        int streamsShort = 0;
        long neitherTail = 0;
        for (Map.Entry<Long, Long> stream : sentPerStream.entrySet()) {
            int sent = (int) Math.min(Integer.MAX_VALUE, Math.max(0, stream.getValue()));
            BitSet d = range(delivered.get(stream.getKey()), sent);
            BitSet l = range(lost.get(stream.getKey()), sent);
            BitSet anyWay = (BitSet) d.clone();
            anyWay.or(l);
            BitSet bothWays = (BitSet) d.clone();
            bothWays.and(l);
            expected += sent;
            both += bothWays.cardinality();
            deliveredOnly += d.cardinality() - bothWays.cardinality();
            lostOnly += l.cardinality() - bothWays.cardinality();
            long missing = sent - anyWay.cardinality();
            neither += missing;
            if (missing > 0) {
                streamsShort++;
                neitherTail += sent - anyWay.length();
            }
        }
        unexpected += beyond(delivered, sentPerStream) + beyond(lost, sentPerStream);
        return new PromiseTally(sentPerStream.size(), expected, deliveredOnly, lostOnly, both, neither, duplicates,
                unexpected, streamsShort, neitherTail);
    }

    private static BitSet range(BitSet bits, int length) {
        return bits == null ? new BitSet() : bits.get(0, length);
    }

    /** Ids in {@code seen} at or past the count the senders report, or on a stream no sender reports. */
    private static long beyond(Map<Long, BitSet> seen, Map<Long, Long> sentPerStream) {
        long count = 0;
        for (Map.Entry<Long, BitSet> stream : seen.entrySet()) {
            Long sent = sentPerStream.get(stream.getKey());
            BitSet bits = stream.getValue();
            int from = sent == null ? 0 : (int) Math.min(Integer.MAX_VALUE, Math.max(0, sent));
            count += bits.get(from, Math.max(from, bits.length())).cardinality();
        }
        return count;
    }
}
