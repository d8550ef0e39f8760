package io.ricochet.fec;

/**
 * A block some of whose repairs this receiver holds while packets of it are still missing. The data positions of
 * its {@link ErasureBlock} are filled from the data cache each time decoding is tried. Reused from a free list.
 */
final class PendingBlock {
    final ErasureBlock block;
    int origin;
    int group;
    long start;
    int c;
    /** Still indexed in {@link PendingBlocks} (false once decoded, dropped or evicted). */
    boolean live;
    /** FEC_BLOCKS_UNRECOVERABLE was counted for it. */
    boolean reportedUnrecoverable;

    PendingBlock(int maxPayload) {
        this.block = new ErasureBlock(FecRepairFlyweight.MAX_R, FecRepairFlyweight.MAX_C, maxPayload);
    }

    /** Takes the block's shape from its first repair (already validated). */
    void open(FecRepairFlyweight repair) {
        origin = repair.source();
        group = repair.group();
        start = repair.blockStart();
        c = repair.c();
        live = true;
        reportedUnrecoverable = false;
        block.reset(repair.r(), repair.codedLength());
        for (int j = 0; j < repair.r(); j++) {
            block.length(j, repair.dataLength(j));
        }
    }

    /** True if {@code repair} describes the same block: same r, c, coded length and data lengths. */
    boolean matches(FecRepairFlyweight repair) {
        if (repair.r() != block.dataCount() || repair.c() != c || repair.codedLength() != block.codedLength()) {
            return false;
        }
        for (int j = 0; j < repair.r(); j++) {
            if (repair.dataLength(j) != block.length(j)) {
                return false;
            }
        }
        return true;
    }

    /** Stores the repair's coded payload; false if this repair index is already held. */
    boolean addRepair(FecRepairFlyweight repair) {
        byte[] into = block.addRepair(repair.index());
        if (into == null) {
            return false;
        }
        System.arraycopy(repair.buffer(), repair.payloadOffset(), into, 0, block.codedLength());
        return true;
    }

    boolean covers(long seqno) {
        return seqno >= start && seqno - start < block.dataCount();
    }
}
