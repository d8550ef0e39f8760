package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.StreamTable;

/**
 * The accounting of discovered losses on top of a {@link LossTable}: a revealed sequence gap registers its
 * unresolved seqnos with the table, a new loss is counted and reported discovered, and one the full table refuses
 * is counted and given up at once. A loss given up is resolved in its stream's window (so it is never delivered
 * after) and reported lost. Shared by the engines that recover by asking for what they miss: Ricochet's and
 * FEC's NAK layer ({@link LossTracker}) and SRM's requests.
 */
public final class LossLedger implements io.ricochet.engine.Admission.Losses {
    /** A gap longer than {@link ReceiveWindow#MAX_REVEAL}: what is still to be revealed, up to {@code last}. */
    private record PendingReveal(int origin, int group, ReceiveWindow window, long last) {
    }

    /** Delay before the next part of a long gap is revealed. */
    public static final long REVEAL_INTERVAL_NS = 1_000_000L;

    private final LossTable table;
    private final Counters counters;
    private final Outbox outbox;
    private final java.util.Map<Long, PendingReveal> reveals = new java.util.LinkedHashMap<>();
    private long revealDueNs = Long.MAX_VALUE;

    public LossLedger(LossTable table, Counters counters, Outbox outbox) {
        this.table = table;
        this.counters = counters;
        this.outbox = outbox;
    }

    /**
     * Registers as lost every unresolved seqno of the stream (origin, group) from its highest known one up to
     * {@code last}, at most {@link ReceiveWindow#MAX_REVEAL} of them now: the rest of a longer gap is revealed by
     * {@link #revealPending}, that many at a time, so one frame never buys more work than that.
     */
    @Override
    public void discoverUpTo(int origin, int group, ReceiveWindow window, long last, long nowNs) {
        long target = Math.min(last, window.revealed() + ReceiveWindow.MAX_REVEAL);
        for (long seqno = window.revealUpTo(target); seqno <= target; seqno++) {
            if (!window.isResolved(seqno)) {
                discover(new PacketId(origin, group, seqno), window, nowNs);
            }
        }
        if (target < last) {
            reveals.merge(StreamTable.key(origin, group), new PendingReveal(origin, group, window, last),
                    (a, b) -> a.last() >= b.last() ? a : b);
            if (revealDueNs == Long.MAX_VALUE) {
                revealDueNs = nowNs + REVEAL_INTERVAL_NS;
            }
        }
    }

    /** Reveals the next part of every long gap, if due at {@code nowNs}. */
    public void revealPending(long nowNs) {
        if (revealDueNs == Long.MAX_VALUE || revealDueNs - nowNs > 0) {
            return;
        }
        revealDueNs = Long.MAX_VALUE;
        for (PendingReveal r : java.util.List.copyOf(reveals.values())) {
            reveals.remove(StreamTable.key(r.origin(), r.group()));
            discoverUpTo(r.origin(), r.group(), r.window(), r.last(), nowNs);
        }
    }

    /** When {@link #revealPending} has work, or {@link Long#MAX_VALUE}. */
    public long nextRevealNs() {
        return revealDueNs;
    }

    /** Forgets what was still to be revealed of the stream (origin, group) (it is gone or restarted). */
    public void forgetReveal(int origin, int group) {
        reveals.remove(StreamTable.key(origin, group));
    }

    @Override
    public boolean isPending(PacketId id) {
        return table.isPending(id);
    }

    private void discover(PacketId id, ReceiveWindow window, long nowNs) {
        switch (table.discover(id, nowNs)) {
            case NEW:
                counters.increment(EngineCounter.LOSSES_DETECTED);
                outbox.lossDiscovered(id.origin(), id.group(), id.seqno(), nowNs);
                break;
            case FULL:
                // Better a loss reported now than one nobody tracks: it would never end.
                counters.increment(EngineCounter.LOSSES_DETECTED);
                counters.increment(EngineCounter.LOSS_TABLE_FULL);
                abandon(id, window, nowNs);
                break;
            default:
                break;
        }
    }

    /**
     * Gives up {@code id} of the stream {@code window} belongs to, which the loss table has just released: below
     * the window (slid past it) the table was its only record, so it is reported; otherwise unless it was resolved
     * meanwhile.
     */
    public void giveUp(PacketId id, ReceiveWindow window, long discoveredNs) {
        if (id.seqno() < window.base()) {
            unrecoverable(id, discoveredNs);
        } else if (!window.isResolved(id.seqno())) {
            abandon(id, window, discoveredNs);
        }
    }

    /** {@code id} can no longer be recovered and its stream is gone (a sender restarted): report it lost. */
    public void unrecoverable(PacketId id, long discoveredNs) {
        counters.increment(EngineCounter.UNRECOVERED);
        outbox.lost(id.origin(), id.group(), id.seqno(), discoveredNs);
    }

    private void abandon(PacketId id, ReceiveWindow window, long discoveredNs) {
        window.resolve(id.seqno());
        unrecoverable(id, discoveredNs);
    }
}
