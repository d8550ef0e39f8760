package io.ricochet.fec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The sending side of sender-based FEC (Ricochet paper, section 3.1): per group this node sends to, one open
 * block that every data packet is multiplied into as it is sent. When the block holds r packets, its c repairs
 * are multicast to the group at once. A block still open {@code flushTimeoutNs} after its first packet is closed
 * early the same way over the packets it has, so the last packets of a burst are protected without waiting for
 * traffic that may never come.
 *
 * <p>Every flush deadline lies a fixed delay after the time it was set, so a FIFO is a sorted timer queue; a
 * deadline whose block was closed meanwhile is skipped when it comes due.
 */
final class BlockSender {
    /** The open block of one group. */
    private static final class OpenBlock {
        final int group;
        final ReedSolomonEncoder encoder;
        long start;
        boolean live = true;

        OpenBlock(int group, ReedSolomonEncoder encoder) {
            this.group = group;
            this.encoder = encoder;
        }
    }

    /** A flush deadline for the block of {@code block} that started at {@code start}. */
    private record Flush(long deadlineNs, OpenBlock block, long start) {
    }

    private final int self;
    private final FecConfig config;
    private final Counters counters;
    private final Outbox outbox;
    private final Map<Integer, OpenBlock> blocks = new HashMap<>();
    private final ArrayDeque<Flush> flushes = new ArrayDeque<>();
    private final byte[] frame = new byte[HeaderFlyweight.STANDARD_FRAME_LENGTH];
    private final FecRepairFlyweight repair = new FecRepairFlyweight().wrap(frame, 0);

    BlockSender(int self, FecConfig config, Counters counters, Outbox outbox) {
        this.self = self;
        this.config = config;
        this.counters = counters;
        this.outbox = outbox;
    }

    /** This node multicast data packet {@code seqno} to {@code group}: add it to the group's block. */
    void sent(int group, long seqno, byte[] payload, int offset, int length, long nowNs) {
        OpenBlock block = blocks.computeIfAbsent(group,
                g -> new OpenBlock(g, new ReedSolomonEncoder(config.r(), config.c(), config.maxPayload())));
        ReedSolomonEncoder encoder = block.encoder;
        if (encoder.count() == 0) {
            block.start = seqno;
            flushes.addLast(new Flush(nowNs + config.flushTimeoutNs(), block, seqno));
        } else if (seqno != block.start + encoder.count()) {
            throw new IllegalStateException("seqno " + seqno + " does not follow block " + block.start + "+"
                    + encoder.count() + " of group " + group);
        }
        encoder.add(payload, offset, length);
        counters.add(FecCounter.FEC_ENCODE_MULADDS, config.c());
        if (encoder.isFull()) {
            close(block);
        }
    }

    /** Closes every block whose flush deadline is due. */
    void poll(long nowNs) {
        for (Flush due = flushes.peekFirst(); due != null && due.deadlineNs() - nowNs <= 0;
                due = flushes.peekFirst()) {
            flushes.pollFirst();
            OpenBlock block = due.block();
            if (block.live && block.encoder.count() > 0 && block.start == due.start()) {
                counters.increment(FecCounter.FEC_BLOCKS_FLUSHED);
                close(block);
            }
        }
    }

    /** This node left {@code group}: its open block is dropped unsent (it may not multicast there any more). */
    void left(int group) {
        OpenBlock block = blocks.remove(group);
        if (block != null) {
            block.live = false;
        }
    }

    long nextDeadlineNs() {
        Flush head = flushes.peekFirst();
        return head == null ? Long.MAX_VALUE : head.deadlineNs();
    }

    /** Groups with a block allocated (each holds c repair buffers of maxPayload bytes). */
    int blockCount() {
        return blocks.size();
    }

    private void close(OpenBlock block) {
        ReedSolomonEncoder encoder = block.encoder;
        int count = encoder.count();
        int codedLength = encoder.codedLength();
        for (int i = 0; i < config.c(); i++) {
            repair.writeStart(self, block.group, block.start, count, config.c(), i, codedLength);
            for (int j = 0; j < count; j++) {
                repair.dataLength(j, encoder.length(j));
            }
            System.arraycopy(encoder.repair(i), 0, frame, repair.payloadOffset(), codedLength);
            counters.increment(FecCounter.FEC_REPAIRS_SENT);
            outbox.multicast(block.group, frame, 0, repair.frameLength());
        }
        counters.increment(FecCounter.FEC_BLOCKS_SENT);
        block.start += count;
        encoder.reset();
    }
}
