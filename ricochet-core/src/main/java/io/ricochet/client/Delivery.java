package io.ricochet.client;

import io.ricochet.api.MessageId;
import java.util.Objects;

/**
 * What the daemon pushed for a group this client joined: a message ({@link Kind#DELIVERED}) or the notice that the
 * messages of one datagram will never arrive ({@link Kind#LOST}, with an empty payload; see {@link #covers}).
 *
 * @param origin  the node that multicast the message
 * @param group   the group it was sent to
 * @param seqno   the message id in (origin, group) ({@link MessageId}: its datagram's seqno * 4096 + its index
 *                there); for LOST, the id of the datagram's first message, and the notice covers the whole datagram
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

    /**
     * Whether this delivery is about message {@code id} of (origin, group): a delivered message is its own id; a
     * LOST notice covers every message of its datagram, ids {@link #seqno()} to {@link #lastId()}.
     */
    public boolean covers(long id) {
        return isLost() ? MessageId.sameDatagram(seqno, id) : id == seqno;
    }

    /** The highest message id this delivery is about: {@link #seqno()}, or for LOST the last id of its datagram. */
    public long lastId() {
        return isLost() ? seqno + MessageId.PER_DATAGRAM - 1 : seqno;
    }
}
