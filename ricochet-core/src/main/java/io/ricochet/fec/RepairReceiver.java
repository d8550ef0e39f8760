package io.ricochet.fec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import java.util.ArrayDeque;

/**
 * The receiving side of sender-based FEC: holds the repairs of blocks with missing packets and decodes a block as
 * soon as it holds at least as many repairs as it misses data packets, i.e. at least r of its r + c packets. The
 * data packets of a block come from the engine's data cache; rebuilt ones go back to the engine through a
 * {@link Sink}, which delivers them.
 *
 * <p>Decoding is tried when a repair arrives and whenever a packet of a pending block becomes available by any
 * route (a late data packet, or a NAK retransmission that leaves few enough packets missing). Packets that
 * become available while rebuilt ones are being handed over queue their block for a later try, so decoding never
 * recurses and the decoder's scratch space is never reused while it is being read.
 */
final class RepairReceiver {
    /** Where rebuilt packets go. */
    interface Sink {
        void recovered(PacketId id, byte[] payload, int length, long nowNs);
    }

    private final Counters counters;
    private final PacketStore dataCache;
    private final Sink sink;
    private final PendingBlocks blocks;
    private final ReedSolomonDecoder decoder;
    private final ArrayDeque<PendingBlock> retry = new ArrayDeque<>();
    private boolean handingOver;

    RepairReceiver(FecConfig config, Counters counters, PacketStore dataCache, Sink sink) {
        this.counters = counters;
        this.dataCache = dataCache;
        this.sink = sink;
        this.blocks = new PendingBlocks(config.pendingBlockCapacity(), config.maxPayload(), counters);
        this.decoder = new ReedSolomonDecoder(FecRepairFlyweight.MAX_R, FecRepairFlyweight.MAX_C,
                config.maxPayload());
    }

    /**
     * A validated repair for a block with at least one unresolved packet, in a group this node is in; the engine
     * has already registered the block's missing packets as losses.
     */
    void onRepair(FecRepairFlyweight repair, long nowNs) {
        PendingBlock block = blocks.find(repair.source(), repair.group(), repair.blockStart());
        if (block == null) {
            block = blocks.open(repair);
        } else if (!block.matches(repair)) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!block.addRepair(repair)) {
            counters.increment(EngineCounter.REPAIRS_USELESS);
            return;
        }
        boolean done = tryDecode(block, nowNs);
        if (!done && repair.index() == repair.c() - 1 && !block.reportedUnrecoverable) {
            block.reportedUnrecoverable = true;
            counters.increment(FecCounter.FEC_BLOCKS_UNRECOVERABLE);
        }
        drainRetries(nowNs);
    }

    /** A packet became available (received, retransmitted or rebuilt): its pending block may now decode. */
    void onAvailable(int origin, int group, long seqno, long nowNs) {
        PendingBlock block = blocks.covering(origin, group, seqno);
        if (block == null) {
            return;
        }
        if (handingOver) {
            retry.addLast(block);
            return;
        }
        tryDecode(block, nowNs);
        drainRetries(nowNs);
    }

    /** Forgets the blocks of a stream whose sender restarted. */
    void dropStream(int origin, int group) {
        blocks.dropStream(origin, group);
    }

    private void drainRetries(long nowNs) {
        for (PendingBlock block = retry.pollFirst(); block != null; block = retry.pollFirst()) {
            if (block.live) {
                tryDecode(block, nowNs);
            }
        }
    }

    /** Loads the block's data from the cache and decodes it if it can; true when the block is finished with. */
    private boolean tryDecode(PendingBlock pending, long nowNs) {
        ErasureBlock block = pending.block;
        for (int j = 0; j < block.dataCount(); j++) {
            int slot = dataCache.find(new PacketId(pending.origin, pending.group, pending.start + j));
            if (slot < 0) {
                block.erase(j);
            } else if (dataCache.length(slot) != block.length(j)) {
                counters.increment(EngineCounter.INVALID_PACKETS); // The repairs lie about a packet we hold.
                blocks.remove(pending);
                return true;
            } else {
                block.present(j, dataCache.payload(slot), dataCache.offset(slot));
            }
        }
        int rebuilt = decoder.decode(block);
        if (rebuilt < 0) {
            return false;
        }
        blocks.remove(pending);
        if (rebuilt > 0) {
            counters.add(FecCounter.FEC_DECODE_MULADDS, decoder.lastMultiplyAdds());
            counters.increment(FecCounter.FEC_BLOCKS_DECODED);
            handOver(pending, nowNs);
        }
        return true;
    }

    private void handOver(PendingBlock pending, long nowNs) {
        ErasureBlock block = pending.block;
        handingOver = true;
        try {
            for (int j = 0; j < block.dataCount(); j++) {
                if (!block.isPresent(j)) {
                    PacketId id = new PacketId(pending.origin, pending.group, pending.start + j);
                    sink.recovered(id, block.data(j), block.length(j), nowNs);
                }
            }
        } finally {
            handingOver = false;
        }
    }

    int pendingBlocks() {
        return blocks.size();
    }

    long memoryBytes() {
        return blocks.memoryBytes();
    }
}
