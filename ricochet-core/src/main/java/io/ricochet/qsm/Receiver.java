package io.ricochet.qsm;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.StreamTable;
import io.ricochet.nak.LossLedger;

/**
 * The one path by which a packet becomes delivered, or a loss discovered or given up, at a QSM member: DATA and a
 * peer's forward both go through {@link #accept} and the shared {@link Admission} (dedupe, gap discovery, caching to
 * forward to peers, delivery).
 */
final class Receiver {
    /** Which frame brought a packet. */
    enum Via { DATA, FORWARD }

    private final StreamTable streams;
    private final MissingTable missing;
    private final LossLedger ledger;
    private final Admission<Via> admission;
    private final Counters counters;
    private final Outbox outbox;

    Receiver(StreamTable streams, MissingTable missing, PacketStore cache, Counters counters, Outbox outbox) {
        this.streams = streams;
        this.missing = missing;
        this.counters = counters;
        this.outbox = outbox;
        this.ledger = new LossLedger(missing, counters, outbox);
        this.admission = new Admission<>(cache, outbox, ledger, this::account, counters);
    }

    /** A packet of another sender arrived in {@code stream}; the caller checked membership and the payload bound. */
    void accept(StreamTable.Stream stream, PacketId id, byte[] payload, int offset, int length, Via via,
                long nowNs) {
        admission.admit(stream.window(), id, payload, offset, length, via, nowNs);
    }

    /** Whether {@code id} was delivered here (so this member can forward it, if its cache still holds it). */
    boolean delivered(PacketId id) {
        StreamTable.Stream stream = streams.find(id.origin(), id.group());
        return stream != null && !missing.isPending(id) && !admission.isNew(stream.window(), id);
    }

    private Delivery account(PacketId id, Via via, long nowNs) {
        counters.increment(EngineCounter.DELIVERED);
        boolean wasPending = missing.resolve(id) != null;
        if (via == Via.FORWARD) {
            if (!wasPending) {
                // A forward for a loss this member had not discovered yet (a peer saw the gap in the token first).
                counters.increment(EngineCounter.LOSSES_DETECTED);
                outbox.lossDiscovered(id.origin(), id.group(), id.seqno(), nowNs);
            }
            counters.increment(EngineCounter.RECOVERED_BY_NAK);
            return Delivery.NAK;
        }
        counters.increment(EngineCounter.DATA_RECEIVED);
        if (wasPending) {
            counters.increment(EngineCounter.LATE_ARRIVALS);
            return Delivery.LATE;
        }
        return Delivery.DIRECT;
    }

    /** Registers as lost every unresolved seqno of {@code stream} up to {@code last}, a seqno known to exist. */
    void discoverUpTo(StreamTable.Stream stream, long last, long nowNs) {
        ledger.discoverUpTo(stream.origin(), stream.group(), stream.window(), last, nowNs);
    }

    /** Reveals the next part of long gaps, if due. */
    void revealPending(long nowNs) {
        ledger.revealPending(nowNs);
    }

    long nextRevealNs() {
        return ledger.nextRevealNs();
    }

    /** The recovery rounds of {@code id} ran out: report it lost. */
    void giveUp(PacketId id) {
        MissingTable.Loss loss = missing.resolve(id);
        StreamTable.Stream stream = streams.find(id.origin(), id.group());
        if (loss != null && stream != null) {
            ledger.giveUp(id, stream.window(), loss.discoveredNs);
        } else if (loss != null) {
            ledger.unrecoverable(id, loss.discoveredNs);
        }
    }

    /** The losses of the stream (origin, group), or of the whole group if origin is -1, can no longer be recovered. */
    void abandon(int origin, int group) {
        for (MissingTable.Loss loss : missing.removeStream(origin, group)) {
            ledger.unrecoverable(loss.id, loss.discoveredNs);
        }
        if (origin != -1) {
            ledger.forgetReveal(origin, group);
        }
    }
}
