package io.ricochet.nak;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.StreamTable;
import io.ricochet.engine.TokenBucket;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.List;

/**
 * The receiver's half of the NAK layer (paper, section 4.2.7), on top of a {@link LossTracker} and a
 * {@link LossLedger}: a loss found by a sequence gap (or named by a repair or announcement) waits the first delay,
 * during which proactive recovery (LEC, FEC) may rebuild it; then, with NAK on, NAKs are unicast to the sender up
 * to a bound, backing off while unanswered, within the node's NAK rate limit (a NAK the limit holds back is not an
 * attempt); with NAK off, after the last NAK or on a GONE answer, the loss is given up and reported lost. See
 * {@link LossTracker} for the timing rules.
 */
public final class NakRequester implements LossTracker.Handler, Admission.Losses {
    private final int self;
    private final Counters counters;
    private final Outbox outbox;
    private final StreamTable streams;
    private final LossTracker tracker;
    private final LossLedger ledger;
    private final TokenBucket pacer;
    private final byte[] frame;
    private final PacketRefFlyweight nak;

    /**
     * @param self      this node's id
     * @param settings  the timers, bounds and rate limit
     * @param counters  where losses and NAKs are counted
     * @param outbox    where NAKs and loss reports go
     * @param streams   the streams whose windows a given-up loss is resolved in
     * @param maxPayload the largest payload of a data packet: a NAK is padded to a third of its RETRANSMIT
     */
    public NakRequester(int self, NakSettings settings, Counters counters, Outbox outbox, StreamTable streams,
                        int maxPayload) {
        this.self = self;
        this.frame = new byte[PacketRefFlyweight.nakLength(DataFlyweight.dataFrameLength(maxPayload))];
        this.nak = new PacketRefFlyweight().wrap(frame, 0);
        this.counters = counters;
        this.outbox = outbox;
        this.streams = streams;
        long firstDelayNs = settings.nakEnabled() ? settings.nakTimeoutNs() : settings.giveUpNs();
        this.tracker = new LossTracker(settings.nakEnabled(), firstDelayNs, settings.retryNs(),
                settings.maxAttempts(), settings.maxPendingLosses());
        this.ledger = new LossLedger(tracker, counters, outbox);
        this.pacer = new TokenBucket(settings.rateLimit(), Math.max(1, settings.rateLimit() / 10));
    }

    /** Registers as lost every unresolved seqno of the stream from its highest known one up to {@code last}. */
    @Override
    public void discoverUpTo(int origin, int group, ReceiveWindow window, long last, long nowNs) {
        ledger.discoverUpTo(origin, group, window, last, nowNs);
    }

    @Override
    public boolean isPending(PacketId id) {
        return tracker.isPending(id);
    }

    /** What {@link #resolveDiscovered} returns for a packet that was not a pending loss. */
    public static final long NOT_PENDING = Long.MIN_VALUE;

    /** The packet arrived or was rebuilt: true if it was a pending loss (now recovered). */
    public boolean resolve(PacketId id) {
        return resolveDiscovered(id) != NOT_PENDING;
    }

    /**
     * The packet arrived or was rebuilt: when it was found missing if it was a pending loss (now recovered), else
     * {@link #NOT_PENDING}.
     */
    public long resolveDiscovered(PacketId id) {
        PendingLoss loss = tracker.resolve(id);
        return loss == null ? NOT_PENDING : loss.discoveredNs();
    }

    /** The sender answered GONE: the loss, if still pending, is given up at once. */
    public void onGone(PacketRefFlyweight gone, long nowNs) {
        counters.increment(NakCounter.GONE_RECEIVED);
        PendingLoss loss = tracker.resolve(new PacketId(gone.origin(), gone.group(), gone.seqno()));
        if (loss != null) {
            giveUp(loss, nowNs);
        }
    }

    /** The sender restarted: its old stream's pending losses can no longer be recovered and are reported lost. */
    public void forgetStream(int origin, int group) {
        ledger.forgetReveal(origin, group);
        List<PendingLoss> removed = tracker.removeStream(origin, group);
        for (PendingLoss loss : removed) {
            ledger.unrecoverable(loss.id(), loss.discoveredNs());
        }
    }

    /** Reveals the next part of long gaps, then fires due loss timers. */
    public void poll(long nowNs) {
        ledger.revealPending(nowNs);
        tracker.poll(nowNs, this);
    }

    public long nextDeadlineNs() {
        return Math.min(tracker.nextDeadlineNs(), ledger.nextRevealNs());
    }

    /** Losses waiting for recovery now. */
    public int pending() {
        return tracker.size();
    }

    @Override
    public boolean sendNak(PendingLoss loss, long nowNs) {
        if (!pacer.tryAcquire(nowNs)) {
            return false;
        }
        PacketId id = loss.id();
        int length = nak.write(FrameType.NAK, self, id.origin(), id.group(), id.seqno(), frame.length);
        counters.increment(NakCounter.NAKS_SENT);
        outbox.unicast(id.origin(), frame, 0, length);
        return true;
    }

    @Override
    public void nakHeld(PendingLoss loss) {
        counters.increment(NakCounter.NAKS_RATE_LIMITED);
    }

    @Override
    public long nextNakNs(long nowNs) {
        return pacer.availableAtNs(nowNs);
    }

    @Override
    public void giveUp(PendingLoss loss, long nowNs) {
        StreamTable.Stream stream = streams.find(loss.id().origin(), loss.id().group());
        if (stream != null) {
            ledger.giveUp(loss.id(), stream.window(), loss.discoveredNs());
        }
    }
}
