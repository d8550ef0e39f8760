package io.ricochet.pbcast;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.StreamTable;
import java.util.HashMap;
import java.util.Map;

/**
 * The receive side of one member: per-stream state, loss discovery, the message buffer's intake and the FIFO
 * module (paper, section 3.2, third module). A message enters through {@link #accept} whatever carried it; it is
 * delivered in seqno order per (sender, group), and a later one waits for a missing one until that arrives or is
 * given up once sought for {@code stable-threshold} rounds ({@link #expire}), when it is reported lost and skipped.
 *
 * <p>Invariant: a message leaves the buffer only after it was delivered. A gap is discovered no later than any
 * message above it enters the buffer, both age by the same rule, and give-ups run before garbage collection in a
 * round, so the gap is given up first; when the buffer is full and must evict an undelivered message, the gaps
 * below it are given up at once.
 */
final class Receiver implements MessageBuffer.RemovalListener {
    private final int self;
    private final PbcastConfig config;
    private final Outbox outbox;
    private final Counters counters;
    private final MessageBuffer buffer;
    private final MissingTable missing = new MissingTable();
    private final Map<Long, ReceiveStream> streams = new HashMap<>();

    Receiver(int self, PbcastConfig config, Outbox outbox, Counters counters) {
        this.self = self;
        this.config = config;
        this.outbox = outbox;
        this.counters = counters;
        this.buffer = new MessageBuffer(config.bufferCapacity(), config.maxPayload(), this);
    }

    MessageBuffer buffer() {
        return buffer;
    }

    /** Messages known missing and still sought. */
    int missingCount() {
        return missing.size();
    }

    /** The stream of (origin, group), or null if none was seen. */
    ReceiveStream stream(int origin, int group) {
        return streams.get(StreamTable.key(origin, group));
    }

    /** The stream of (origin, group), created on first sight with {@code firstSeen} as its first seqno. */
    ReceiveStream stream(int origin, int group, long firstSeen) {
        return streams.computeIfAbsent(StreamTable.key(origin, group),
                k -> new ReceiveStream(origin, group, ReceiveWindow.baseForFirstSeen(firstSeen),
                        config.streamWindow()));
    }

    /**
     * A message arrived: by the original multicast, or by a gossiper's retransmission. Duplicates are counted and
     * dropped; a new message is buffered (it will be gossiped about) and delivered as soon as FIFO order allows.
     */
    void accept(PacketId id, byte[] payload, int offset, int length, boolean retransmitted, long round, long nowNs) {
        if (id.origin() == self) {
            counters.increment(EngineCounter.DUPLICATES); // our own message, back by multicast loopback
            return;
        }
        ReceiveStream stream = stream(id.origin(), id.group(), id.seqno());
        ReceiveWindow window = stream.window;
        Admission.Outcome outcome = Admission.check(window, id.seqno());
        if (outcome != Admission.Outcome.NEW) {
            counters.increment(outcome == Admission.Outcome.DUPLICATE ? EngineCounter.DUPLICATES
                    : EngineCounter.OUT_OF_WINDOW);
            return;
        }
        buffer.makeRoom();
        if (window.isResolved(id.seqno())) {
            counters.increment(EngineCounter.DUPLICATES); // making room gave this very message up
            return;
        }
        if (!retransmitted) {
            counters.increment(EngineCounter.DATA_RECEIVED);
        }
        discoverUpTo(stream, id.seqno() - 1, round, nowNs);
        boolean wasMissing = missing.remove(id) != null;
        if (retransmitted) {
            if (!wasMissing) {
                countLoss(id, nowNs); // a multicast retransmission ahead of any digest: discovered and recovered
            }
            counters.increment(EngineCounter.RECOVERED_BY_NAK);
        } else if (wasMissing) {
            counters.increment(EngineCounter.LATE_ARRIVALS);
        }
        buffer.put(id, payload, offset, length, round, retransmitted);
        window.resolve(id.seqno());
        if (window.base() <= id.seqno()) {
            counters.increment(PbcastCounter.PBCAST_HELD_BACK);
        }
        deliverReady(stream);
    }

    /** True if this member has neither received nor given up {@code seqno} of the stream. */
    boolean lacks(ReceiveStream stream, long seqno) {
        return !stream.window.isResolved(seqno);
    }

    /**
     * Records as missing every unresolved seqno above the highest known one, up to {@code last}, which the caller
     * keeps inside the stream's window.
     */
    void discoverUpTo(ReceiveStream stream, long last, long round, long nowNs) {
        ReceiveWindow window = stream.window;
        for (long seqno = window.revealUpTo(last); seqno <= last; seqno++) {
            if (!window.isResolved(seqno)) {
                PacketId id = new PacketId(stream.origin, stream.group, seqno);
                if (missing.add(id, round, nowNs)) {
                    countLoss(id, nowNs);
                }
            }
        }
    }

    private void countLoss(PacketId id, long nowNs) {
        counters.increment(EngineCounter.LOSSES_DETECTED);
        outbox.lossDiscovered(id.origin(), id.group(), id.seqno(), nowNs);
    }

    /**
     * At the start of {@code round}: gives up the messages missing since more than {@code stable-threshold} rounds
     * and delivers what that frees.
     */
    void expire(long round) {
        for (MissingTable.Missing m : missing.expire(round, config.stableThreshold())) {
            ReceiveStream stream = stream(m.id().origin(), m.id().group());
            if (stream != null && !stream.window.isResolved(m.id().seqno())) {
                giveUp(stream, m);
                deliverReady(stream);
            }
        }
    }

    private void giveUp(ReceiveStream stream, MissingTable.Missing m) {
        stream.window.resolve(m.id().seqno());
        counters.increment(EngineCounter.UNRECOVERED);
        outbox.lost(m.id().origin(), m.id().group(), m.id().seqno(), m.discoveredNs());
    }

    private void deliverReady(ReceiveStream stream) {
        long base = stream.window.base();
        while (stream.nextDeliver < base) {
            int slot = buffer.find(new PacketId(stream.origin, stream.group, stream.nextDeliver));
            if (slot >= 0) { // otherwise the seqno was given up and reported lost
                counters.increment(EngineCounter.DELIVERED);
                outbox.deliver(stream.origin, stream.group, stream.nextDeliver, buffer.payload(slot), 0,
                        buffer.length(slot), buffer.recovered(slot) ? Delivery.NAK : Delivery.DIRECT);
            }
            stream.nextDeliver++;
        }
    }

    @Override
    public void beforeRemove(int slot, boolean evicted) {
        counters.increment(evicted ? PbcastCounter.PBCAST_BUFFER_EVICTIONS : PbcastCounter.PBCAST_GC_EXPIRED);
        PacketId id = buffer.id(slot);
        ReceiveStream stream = id.origin() == self ? null : stream(id.origin(), id.group());
        if (stream == null || id.seqno() < stream.nextDeliver) {
            return;
        }
        // Still held back for FIFO order: give up the gaps below it so it is delivered before it goes.
        for (long seqno = stream.window.base(); seqno < id.seqno(); seqno++) {
            if (!stream.window.isResolved(seqno)) {
                PacketId gap = new PacketId(id.origin(), id.group(), seqno);
                MissingTable.Missing m = missing.remove(gap);
                if (m == null) { // not expected: every gap below the highest seqno was discovered
                    countLoss(gap, 0);
                    m = new MissingTable.Missing(gap, 0, 0);
                }
                giveUp(stream, m);
            }
        }
        deliverReady(stream);
    }

    /** Seqno the stream delivers next (everything below was delivered or reported lost); -1 for no stream. */
    long nextDeliver(int origin, int group) {
        ReceiveStream stream = stream(origin, group);
        return stream == null ? -1 : stream.nextDeliver;
    }
}
