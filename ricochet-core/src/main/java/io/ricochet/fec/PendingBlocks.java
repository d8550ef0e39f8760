package io.ricochet.fec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.StreamTable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bounded table of {@link PendingBlock}s: found by their first seqno or by any seqno they cover, evicted
 * oldest first when full ({@code FEC_BLOCK_EVICTIONS}), and recycled with their repair buffers, so memory stays
 * at {@code capacity * MAX_C * maxPayload} bytes at most.
 */
final class PendingBlocks {
    private final int capacity;
    private final int maxPayload;
    private final Counters counters;
    private final Map<Long, TreeMap<Long, PendingBlock>> byStream = new HashMap<>();
    private final LinkedHashSet<PendingBlock> oldestFirst = new LinkedHashSet<>();
    private final ArrayDeque<PendingBlock> free = new ArrayDeque<>();
    private int allocated;

    PendingBlocks(int capacity, int maxPayload, Counters counters) {
        this.capacity = capacity;
        this.maxPayload = maxPayload;
        this.counters = counters;
    }

    /** The block of (origin, group) starting at {@code start}, or null. */
    PendingBlock find(int origin, int group, long start) {
        TreeMap<Long, PendingBlock> blocks = byStream.get(StreamTable.key(origin, group));
        return blocks == null ? null : blocks.get(start);
    }

    /** The block of (origin, group) that contains {@code seqno}, or null. */
    PendingBlock covering(int origin, int group, long seqno) {
        TreeMap<Long, PendingBlock> blocks = byStream.get(StreamTable.key(origin, group));
        if (blocks == null) {
            return null;
        }
        Map.Entry<Long, PendingBlock> floor = blocks.floorEntry(seqno);
        return floor != null && floor.getValue().covers(seqno) ? floor.getValue() : null;
    }

    /** A new block shaped by its first repair, evicting the oldest one if the table is full. */
    PendingBlock open(FecRepairFlyweight repair) {
        if (oldestFirst.size() >= capacity) {
            counters.increment(FecCounter.FEC_BLOCK_EVICTIONS);
            remove(oldestFirst.iterator().next());
        }
        PendingBlock block = free.pollFirst();
        if (block == null) {
            block = new PendingBlock(maxPayload);
            allocated++;
        }
        block.open(repair);
        byStream.computeIfAbsent(StreamTable.key(block.origin, block.group), k -> new TreeMap<>())
                .put(block.start, block);
        oldestFirst.add(block);
        return block;
    }

    /**
     * Unindexes a block and puts it on the free list: the caller must be done with its contents before the next
     * {@link #open}.
     */
    void remove(PendingBlock block) {
        if (!block.live) {
            return;
        }
        block.live = false;
        oldestFirst.remove(block);
        long key = StreamTable.key(block.origin, block.group);
        TreeMap<Long, PendingBlock> blocks = byStream.get(key);
        blocks.remove(block.start);
        if (blocks.isEmpty()) {
            byStream.remove(key);
        }
        free.addLast(block);
    }

    /** Drops every block of a stream (its sender restarted, so its old blocks mean nothing now). */
    void dropStream(int origin, int group) {
        TreeMap<Long, PendingBlock> blocks = byStream.get(StreamTable.key(origin, group));
        if (blocks != null) {
            for (PendingBlock block : new ArrayList<>(blocks.values())) {
                remove(block);
            }
        }
    }

    int size() {
        return oldestFirst.size();
    }

    /** Upper bound of the repair storage allocated so far. */
    long memoryBytes() {
        return (long) allocated * FecRepairFlyweight.MAX_C * maxPayload;
    }
}
