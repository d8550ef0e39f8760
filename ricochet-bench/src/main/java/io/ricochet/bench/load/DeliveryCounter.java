package io.ricochet.bench.load;

import io.ricochet.api.MessageId;
import io.ricochet.engine.StreamTable;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts what a sink is handed and checks that no message id (origin, group, id) comes twice: a delivery of an id
 * already seen, or a loss notice for a datagram some of whose messages were seen, is a duplicate (docs/api.md,
 * "Message ids"). A daemon hands the messages of one datagram to a connection one after the other, so each stream
 * keeps one bit per datagram seqno and the indexes of the datagram it is in; a message of a datagram seen before,
 * but not the current one, is a duplicate. Datagram seqnos above {@link Integer#MAX_VALUE} are counted but not
 * checked. Thread-safe: the client's reader thread records, another thread reads totals.
 */
public final class DeliveryCounter {
    private final Map<Long, Stream> seen = new HashMap<>();
    private long delivered;
    private long lost;
    private long duplicates;
    private long unchecked;

    /**
     * Totals so far.
     *
     * @param delivered  messages delivered (first copies)
     * @param lost       loss notices, one per datagram given up on (each covers all its messages)
     * @param duplicates ids handed over more than once
     * @param unchecked  ids whose datagram seqno is too large to check
     * @param streams    distinct (origin, group) streams seen
     */
    public record Totals(long delivered, long lost, long duplicates, long unchecked, int streams) {
    }

    /** The datagrams of one (origin, group) seen, and the indexes seen of the one being delivered. */
    private static final class Stream {
        final BitSet datagrams = new BitSet();
        final BitSet indexes = new BitSet();
        long current = -1;
    }

    /** A message was delivered. */
    public synchronized void delivered(int origin, int group, long id) {
        if (id < 0 || MessageId.datagram(id) > Integer.MAX_VALUE) {
            unchecked++;
            delivered++;
            return;
        }
        Stream stream = stream(origin, group);
        long datagram = MessageId.datagram(id);
        if (datagram != stream.current) {
            if (stream.datagrams.get((int) datagram)) {
                duplicates++;
                return;
            }
            stream.datagrams.set((int) datagram);
            stream.current = datagram;
            stream.indexes.clear();
        }
        if (stream.indexes.get(MessageId.index(id))) {
            duplicates++;
            return;
        }
        stream.indexes.set(MessageId.index(id));
        delivered++;
    }

    /** The daemon gave up on the datagram named by {@code id}: all its messages. */
    public synchronized void lost(int origin, int group, long id) {
        if (id < 0 || MessageId.datagram(id) > Integer.MAX_VALUE) {
            unchecked++;
            lost++;
            return;
        }
        Stream stream = stream(origin, group);
        int datagram = (int) MessageId.datagram(id);
        if (stream.datagrams.get(datagram)) {
            duplicates++;
            return;
        }
        stream.datagrams.set(datagram);
        stream.current = -1;
        lost++;
    }

    public synchronized Totals totals() {
        return new Totals(delivered, lost, duplicates, unchecked, seen.size());
    }

    private Stream stream(int origin, int group) {
        return seen.computeIfAbsent(StreamTable.key(origin, group), k -> new Stream());
    }
}
