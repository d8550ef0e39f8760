package io.ricochet.client;

import java.util.Objects;

/**
 * What the daemon pushed for a group this client joined: a packet ({@link Kind#DELIVERED}) or the notice that a
 * packet will never arrive ({@link Kind#LOST}, with an empty payload).
 *
 * @param origin  the node that multicast the packet
 * @param group   the group it was sent to
 * @param seqno   its sequence number in (origin, group), from 0
 * @param payload the application's bytes; empty for LOST
 * @param kind    delivered or lost
 */
public record Delivery(int origin, int group, long seqno, byte[] payload, Kind kind) {
    private static final byte[] NONE = new byte[0];

    /** Whether a delivery carries a packet or reports its loss. */
    public enum Kind {
        DELIVERED, LOST
    }

    public Delivery {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(kind, "kind");
    }

    /** A delivered packet. */
    public static Delivery delivered(int origin, int group, long seqno, byte[] payload) {
        return new Delivery(origin, group, seqno, payload, Kind.DELIVERED);
    }

    /** A packet the daemon gave up on. */
    public static Delivery lost(int origin, int group, long seqno) {
        return new Delivery(origin, group, seqno, NONE, Kind.LOST);
    }

    public boolean isLost() {
        return kind == Kind.LOST;
    }
}
