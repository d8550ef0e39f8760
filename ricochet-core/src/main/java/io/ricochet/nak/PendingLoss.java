package io.ricochet.nak;

import io.ricochet.engine.PacketId;

/** A discovered loss the NAK layer is waiting on. */
public final class PendingLoss {
    final PacketId id;
    final long discoveredNs;
    long deadlineNs;
    int naksSent;
    int deferrals;
    boolean live = true;

    PendingLoss(PacketId id, long discoveredNs) {
        this.id = id;
        this.discoveredNs = discoveredNs;
    }

    public PacketId id() {
        return id;
    }

    public long discoveredNs() {
        return discoveredNs;
    }

    public int naksSent() {
        return naksSent;
    }

    /** Times the give-up was put off because its timer ran late. */
    public int deferrals() {
        return deferrals;
    }
}
