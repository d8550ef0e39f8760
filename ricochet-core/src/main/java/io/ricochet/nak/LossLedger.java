package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ReceiveWindow;

/**
 * The accounting of discovered losses on top of a {@link LossTable}: a revealed sequence gap registers its
 * unresolved seqnos with the table, a new loss is counted and reported discovered, and one the full table refuses
 * is counted and given up at once. A loss given up is resolved in its stream's window (so it is never delivered
 * after) and reported lost. Shared by the engines that recover by asking for what they miss: Ricochet's and
 * FEC's NAK layer ({@link LossTracker}) and SRM's requests.
 */
public final class LossLedger implements io.ricochet.engine.Admission.Losses {
    private final LossTable table;
    private final Counters counters;
    private final Outbox outbox;

    public LossLedger(LossTable table, Counters counters, Outbox outbox) {
        this.table = table;
        this.counters = counters;
        this.outbox = outbox;
    }

    /**
     * Registers as lost every unresolved seqno of the stream (origin, group) from its highest known one up to
     * {@code last}; the caller checked that {@code last} is inside the stream's window.
     */
    @Override
    public void discoverUpTo(int origin, int group, ReceiveWindow window, long last, long nowNs) {
        for (long seqno = window.revealUpTo(last); seqno <= last; seqno++) {
            if (!window.isResolved(seqno)) {
                discover(new PacketId(origin, group, seqno), window, nowNs);
            }
        }
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
