package io.ricochet.nak;

import io.ricochet.engine.PacketId;

/** A discovered loss the NAK layer is waiting on. */
public final class PendingLoss {
    final PacketId id;
    final long discoveredNs;
    long deadlineNs;
    int naksSent;
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
}
