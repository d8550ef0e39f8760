package io.ricochet.nak;

import io.ricochet.engine.PacketId;

/**
 * A bounded table of discovered, unrecovered losses, each waiting on its own recovery timers: the NAK layer's
 * {@link LossTracker}, SRM's request timers. A {@link LossLedger} registers the losses it discovers here.
 */
public interface LossTable {
    /** What {@link #discover} did with a loss. */
    enum Outcome { NEW, KNOWN, FULL }

    /** Registers a loss discovered at {@code nowNs}: KNOWN if it was pending already, FULL if there is no room. */
    Outcome discover(PacketId id, long nowNs);

    /** Whether {@code id} is registered and waiting for recovery. */
    boolean isPending(PacketId id);
}
