package io.ricochet.srm;

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
 * The one path by which a packet becomes delivered, and by which losses are discovered and given up. Data and
 * repairs both go through {@link #accept}: its {@link Admission} (dedupe, gap discovery, caching so this node can
 * answer requests, accounting and delivery) happens the same way whichever frame brought the packet.
 */
final class Receiver {
    /** Which frame brought a packet. */
    enum Via { DATA, REPAIR }

    private final StreamTable streams;
    private final RequestTable requests;
    private final LossLedger ledger;
    private final Admission<Via> admission;
    private final SessionTable sessions;
    private final Counters counters;
    private final Outbox outbox;

    Receiver(StreamTable streams, RequestTable requests, PacketStore cache, SessionTable sessions,
             Counters counters, Outbox outbox) {
        this.streams = streams;
        this.requests = requests;
        this.sessions = sessions;
        this.counters = counters;
        this.outbox = outbox;
        this.ledger = new LossLedger(requests, counters, outbox);
        this.admission = new Admission<>(cache, outbox, ledger, this::account, counters);
    }

    /** A packet from another sender arrived; the caller checked membership and payload length. */
    void accept(PacketId id, byte[] payload, int offset, int length, Via via, long nowNs) {
        StreamTable.Stream stream = streams.getOrCreate(id.origin(), id.group(), id.seqno());
        Admission.Outcome outcome = admission.admit(stream.window(), id, payload, offset, length, via, nowNs);
        if (!outcome.delivered()) {
            return;
        }
        sessions.heard(id.group(), nowNs);
    }

    /** Whether {@code id} of {@code stream} is neither delivered nor given up. */
    boolean isNew(StreamTable.Stream stream, PacketId id) {
        return admission.isNew(stream.window(), id);
    }

    /** A new packet is being delivered: counts it and what it recovered. */
    private Delivery account(PacketId id, Via via, long nowNs) {
        if (via == Via.DATA) {
            counters.increment(EngineCounter.DATA_RECEIVED);
        }
        counters.increment(EngineCounter.DELIVERED);
        boolean wasPending = requests.resolve(id);
        if (via == Via.REPAIR) {
            if (!wasPending) {
                // A repair answering someone else's request reached us before we knew we missed the packet.
                counters.increment(EngineCounter.LOSSES_DETECTED);
                outbox.lossDiscovered(id.origin(), id.group(), id.seqno(), nowNs);
            }
            counters.increment(EngineCounter.RECOVERED_BY_NAK);
            return Delivery.NAK;
        }
        if (wasPending) {
            counters.increment(EngineCounter.LATE_ARRIVALS);
            return Delivery.LATE;
        }
        return Delivery.DIRECT;
    }

    /**
     * {@code last} is known to exist: registers as lost every unresolved seqno from the stream's highest known one
     * up to {@code last}. The caller checked that {@code last} is inside the stream's window.
     */
    /** Reveals the next part of long gaps, if due. */
    void revealPending(long nowNs) {
        ledger.revealPending(nowNs);
    }

    long nextRevealNs() {
        return ledger.nextRevealNs();
    }

    void discoverUpTo(StreamTable.Stream stream, long last, long nowNs) {
        ledger.discoverUpTo(stream.origin(), stream.group(), stream.window(), last, nowNs);
    }

    /** The request rounds for {@code id} ran out (or this node left its group): report it lost. */
    void giveUp(PacketId id, long discoveredNs) {
        requests.resolve(id);
        StreamTable.Stream stream = streams.find(id.origin(), id.group());
        if (stream != null) {
            ledger.giveUp(id, stream.window(), discoveredNs);
        }
    }

    /** {@code old} was replaced by a restarted sender's new stream: its losses can no longer be recovered. */
    void restarted(StreamTable.Stream old) {
        for (RequestTable.Loss loss : requests.removeStream(old.origin(), old.group())) {
            ledger.unrecoverable(loss.id, loss.discoveredNs);
        }
    }
}
