package io.ricochet.engine;

import io.ricochet.wire.DataFlyweight;

/**
 * How a data packet from another sender enters its stream, whatever frame brought it, in the protocols that
 * deliver on arrival (Ricochet, SRM, FEC): a seqno too far ahead of the stream's window, or already resolved, is
 * refused; a new one reveals the losses below it, is resolved, cached (to answer or rebuild from) and delivered,
 * the protocol saying how it came. pbcast, which delivers in FIFO order from its own buffer, shares the
 * {@link #check}. Counting is the caller's: counters are per protocol, so it is told the outcome. No state is kept
 * between calls, so what the caller does with one delivered packet may admit another (FEC's rebuilt packets).
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
        NEW
    }

    /** Registers as lost every unresolved seqno of the stream (origin, group) up to {@code last}. */
    @FunctionalInterface
    public interface Gaps {
        void discoverUpTo(int origin, int group, ReceiveWindow window, long last, long nowNs);
    }

    /** The protocol's part for a new packet: settles its pending loss, counts it, and says how it was delivered. */
    @FunctionalInterface
    public interface Accounting<C> {
        Delivery account(PacketId id, C via, long nowNs);
    }

    private final PacketStore cache;
    private final Outbox outbox;
    private final Gaps gaps;
    private final Accounting<C> accounting;

    /**
     * @param cache      where a delivered packet's payload is kept
     * @param outbox     where it is delivered
     * @param gaps       the protocol's loss discovery
     * @param accounting the protocol's accounting of a delivery
     */
    public Admission(PacketStore cache, Outbox outbox, Gaps gaps, Accounting<C> accounting) {
        this.cache = cache;
        this.outbox = outbox;
        this.gaps = gaps;
        this.accounting = accounting;
    }

    /**
     * The checks on a DATA or RETRANSMIT frame before its packet is admitted, in the protocols that NAK (Ricochet,
     * FEC): a DATA frame must come from the packet's origin, the payload must fit, and this node must be in the
     * group. A refusal is counted ({@code INVALID_PACKETS} or {@code NON_MEMBER}), and so is a retransmission
     * received.
     *
     * @param retransmission whether a RETRANSMIT frame brought the packet (its sender is not the origin)
     * @param member         whether this node is a member of the packet's group
     * @return whether the packet may be admitted
     */
    public static boolean acceptable(DataFlyweight packet, boolean retransmission, boolean member, int maxPayload,
                                     Counters counters) {
        if (!retransmission && packet.origin() != packet.source()) {
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

    /** Whether {@code seqno} is new to the stream {@code window} tracks. */
    public static Outcome check(ReceiveWindow window, long seqno) {
        if (window.beyondWindow(seqno)) {
            return Outcome.OUT_OF_WINDOW;
        }
        return window.isResolved(seqno) ? Outcome.DUPLICATE : Outcome.NEW;
    }

    /**
     * Delivers {@code id} if it is new to the stream {@code window} tracks. The caller checked membership and the
     * payload's length, and that the packet is not its own.
     */
    public Outcome admit(ReceiveWindow window, PacketId id, byte[] payload, int offset, int length, C via,
                         long nowNs) {
        Outcome outcome = check(window, id.seqno());
        if (outcome != Outcome.NEW) {
            return outcome;
        }
        // Gaps first: the accounting frees the packet's own entry in the loss table, which must not make room for
        // a loss below it that the full table would otherwise refuse.
        gaps.discoverUpTo(id.origin(), id.group(), window, id.seqno() - 1, nowNs);
        window.resolve(id.seqno());
        cache.put(id, payload, offset, length);
        Delivery how = accounting.account(id, via, nowNs);
        outbox.deliver(id.origin(), id.group(), id.seqno(), payload, offset, length, how);
        return Outcome.NEW;
    }
}
