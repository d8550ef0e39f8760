package io.ricochet.engine;

import io.ricochet.wire.DataFlyweight;

/**
 * How a data packet from another sender enters its stream, whatever frame brought it, in the protocols that
 * deliver on arrival (Ricochet, SRM, FEC): a seqno already resolved is refused; a new one reveals the losses below
 * it, is resolved, cached (to answer or rebuild from) and delivered, the protocol saying how it came. A seqno far
 * ahead slides the window (its skipped seqnos stay pending in the loss table, which decides about a seqno below
 * the window); one more than {@link ReceiveWindow#maxJump()} ahead restarts it ({@link Outcome#RESTARTED}).
 * pbcast, which delivers in FIFO order from its own buffer, shares the {@link #check}. Duplicates, slides and
 * restarts are counted here. No state is kept between calls, so what the caller does with one delivered packet
 * may admit another (FEC's rebuilt packets).
 *
 * @param <C> what the protocol calls the ways a packet can come (a data frame, a retransmission, a repair, ...)
 */
public final class Admission<C> {
    /** What became of a packet. */
    public enum Outcome {
        /** Too far ahead of the stream's window to track: dropped. */
        OUT_OF_WINDOW,
        /** Delivered or given up before (or below the window): dropped. */
        DUPLICATE,
        /** New to its stream: {@link #check} lets it in, {@link #admit} delivered it. */
        NEW,
        /**
         * New, but more than {@link ReceiveWindow#maxJump()} beyond anything known of its stream: the window
         * restarted at it and {@link #admit} delivered it; what lay between is not tracked (the caller counts it).
         */
        RESTARTED,
        /**
         * Not delivered now: more than {@link ReceiveWindow#MAX_REVEAL} seqnos below it were not revealed yet. The
         * gap is revealed that many at a time, this packet included, and the packet recovered like any loss.
         */
        DEFERRED;

        /** Whether {@link #admit} delivered the packet. */
        public boolean delivered() {
            return this == NEW || this == RESTARTED;
        }
    }

    /** The protocol's table of pending losses, as admission needs it. */
    public interface Losses {
        /** Registers as lost every unresolved seqno of the stream (origin, group) up to {@code last}. */
        void discoverUpTo(int origin, int group, ReceiveWindow window, long last, long nowNs);

        /** Whether {@code id} is a loss still waiting for recovery (the authority below a stream's window). */
        boolean isPending(PacketId id);
    }

    /** The protocol's part for a new packet: settles its pending loss, counts it, and says how it was delivered. */
    @FunctionalInterface
    public interface Accounting<C> {
        Delivery account(PacketId id, C via, long nowNs);
    }

    private final PacketStore cache;
    private final Outbox outbox;
    private final Losses gaps;
    private final Accounting<C> accounting;
    private final Counters counters;

    /**
     * @param cache      where a delivered packet's payload is kept
     * @param outbox     where it is delivered
     * @param gaps       the protocol's loss table
     * @param accounting the protocol's accounting of a delivery
     * @param counters   where duplicates, window slides and restarts are counted
     */
    public Admission(PacketStore cache, Outbox outbox, Losses gaps, Accounting<C> accounting, Counters counters) {
        this.cache = cache;
        this.outbox = outbox;
        this.gaps = gaps;
        this.accounting = accounting;
        this.counters = counters;
    }

    /**
     * The checks on a DATA or RETRANSMIT frame before its packet is admitted, in the protocols that NAK (Ricochet,
     * FEC): a DATA or RETRANSMIT frame must come from the packet's origin (NAKs go to the origin, and only it answers,
     * so its datagram's authentication is the origin's own), the payload must fit, and this node must be in the
     * group. A refusal is counted ({@code INVALID_PACKETS} or {@code NON_MEMBER}), and so is a retransmission
     * received.
     *
     * @param retransmission whether a RETRANSMIT frame brought the packet
     * @param member         whether this node is a member of the packet's group
     * @return whether the packet may be admitted
     */
    public static boolean acceptable(DataFlyweight packet, boolean retransmission, boolean member, int maxPayload,
                                     Counters counters) {
        if (packet.origin() != packet.source()) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return false;
        }
        if (packet.payloadLength() > maxPayload) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return false;
        }
        if (!member) {
            counters.increment(EngineCounter.NON_MEMBER);
            return false;
        }
        if (retransmission) {
            counters.increment(EngineCounter.RETRANSMITS_RECEIVED);
        }
        return true;
    }

    /**
     * Whether {@code seqno} is new to the stream {@code window} tracks, for a protocol whose window does not slide
     * (pbcast delivers in order from its own buffer).
     */
    public static Outcome check(ReceiveWindow window, long seqno) {
        if (window.beyondWindow(seqno)) {
            return Outcome.OUT_OF_WINDOW;
        }
        return window.isResolved(seqno) ? Outcome.DUPLICATE : Outcome.NEW;
    }

    /**
     * Delivers {@code id} if it is new to the stream {@code window} tracks (a duplicate is counted). The caller
     * checked membership and the payload's length, and that the packet is not its own.
     */
    public Outcome admit(ReceiveWindow window, PacketId id, byte[] payload, int offset, int length, C via,
                         long nowNs) {
        if (!isNew(window, id)) {
            counters.increment(EngineCounter.DUPLICATES);
            return Outcome.DUPLICATE;
        }
        Outcome outcome = Outcome.NEW;
        if (window.isJump(id.seqno())) {
            window.restartAt(id.seqno());
            outcome = Outcome.RESTARTED;
            counters.increment(EngineCounter.STREAM_RESTARTS);
        } else if (id.seqno() - 1 - window.revealed() > ReceiveWindow.MAX_REVEAL) {
            gaps.discoverUpTo(id.origin(), id.group(), window, id.seqno(), nowNs);
            counters.increment(EngineCounter.REVEALS_DEFERRED);
            return Outcome.DEFERRED;
        } else if (window.beyondWindow(id.seqno())) {
            counters.increment(EngineCounter.WINDOW_SLIDES);
        }
        // Gaps first: the accounting frees the packet's own entry in the loss table, which must not make room for
        // a loss below it that the full table would otherwise refuse.
        gaps.discoverUpTo(id.origin(), id.group(), window, id.seqno() - 1, nowNs);
        window.resolve(id.seqno());
        cache.put(id, payload, offset, length);
        Delivery how = accounting.account(id, via, nowNs);
        outbox.deliver(id.origin(), id.group(), id.seqno(), payload, offset, length, how);
        return outcome;
    }

    /** Whether {@code id} is neither delivered nor given up: below the window, only a pending loss is. */
    public boolean isNew(ReceiveWindow window, PacketId id) {
        return id.seqno() < window.base() ? gaps.isPending(id) : !window.isResolved(id.seqno());
    }
}
