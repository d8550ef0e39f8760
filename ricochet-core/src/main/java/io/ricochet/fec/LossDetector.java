package io.ricochet.fec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.nak.NakCounter;
import io.ricochet.nak.LossLedger;
import io.ricochet.nak.LossTracker;
import io.ricochet.nak.PendingLoss;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;

/**
 * The receiver's half of loss handling, on top of the NAK layer's {@link LossTracker} and {@link LossLedger}: a
 * loss is discovered from a sequence gap or from a repair naming a block with missing packets; FEC has until the
 * tracker's first deadline to repair it. Then, with NAK on, a NAK is unicast to the sender every retry period up
 * to a bound; with NAK off, or after the last NAK, the loss is given up and reported lost.
 */
final class LossDetector implements LossTracker.Handler {
    private final int self;
    private final Counters counters;
    private final Outbox outbox;
    private final FecStreams streams;
    private final LossTracker tracker;
    private final LossLedger ledger;
    private final byte[] frame = new byte[PacketRefFlyweight.LENGTH];
    private final PacketRefFlyweight nak = new PacketRefFlyweight().wrap(frame, 0);

    LossDetector(int self, FecConfig config, Counters counters, Outbox outbox, FecStreams streams) {
        this.self = self;
        this.counters = counters;
        this.outbox = outbox;
        this.streams = streams;
        long firstDelayNs = config.nakEnabled() ? config.nakTimeoutNs() : config.giveUpNs();
        this.tracker = new LossTracker(config.nakEnabled(), firstDelayNs, config.nakRetryNs(),
                config.nakMaxAttempts(), config.maxPendingLosses());
        this.ledger = new LossLedger(tracker, counters, outbox);
    }

    /** Registers as lost every unresolved seqno of the stream from its highest known one up to {@code last}. */
    void discoverUpTo(int origin, int group, ReceiveWindow window, long last, long nowNs) {
        ledger.discoverUpTo(origin, group, window, last, nowNs);
    }

    /** The packet arrived or was rebuilt: true if it was a pending loss (now recovered). */
    boolean resolve(PacketId id) {
        return tracker.resolve(id) != null;
    }

    /** The sender answered GONE: the loss is given up at once. */
    void onGone(PacketId id, long nowNs) {
        PendingLoss loss = tracker.resolve(id);
        if (loss != null) {
            giveUp(loss, nowNs);
        }
    }

    /** Fires due loss timers. */
    void poll(long nowNs) {
        tracker.poll(nowNs, this);
    }

    long nextDeadlineNs() {
        return tracker.nextDeadlineNs();
    }

    int pending() {
        return tracker.size();
    }

    @Override
    public void sendNak(PendingLoss loss, long nowNs) {
        PacketId id = loss.id();
        int length = nak.write(FrameType.NAK, self, id.origin(), id.group(), id.seqno());
        counters.increment(NakCounter.NAKS_SENT);
        outbox.unicast(id.origin(), frame, 0, length);
    }

    @Override
    public void giveUp(PendingLoss loss, long nowNs) {
        FecStreams.Stream stream = streams.find(loss.id().origin(), loss.id().group());
        if (stream != null) {
            ledger.giveUp(loss.id(), stream.window, loss.discoveredNs());
        }
    }
}
