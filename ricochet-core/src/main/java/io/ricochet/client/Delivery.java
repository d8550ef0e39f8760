package io.ricochet.client;

import io.ricochet.api.MessageId;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * What the daemon pushed for a group this client joined: a message ({@link Kind#DELIVERED}), or the notice that some
 * messages will never reach this connection: those of one datagram the daemon gave up on ({@link Kind#LOST}), or a
 * run of messages it dropped because this connection read too slowly ({@link Kind#DROPPED}). Notices carry an empty
 * payload; {@link #covers} says which message ids one is about.
 *
 * @param origin  the node that multicast the message
 * @param group   the group it was sent to
 * @param seqno   the message id in (origin, group) ({@link MessageId}: its datagram's seqno * 4096 + its index
 *                there); for LOST, the id of the datagram's first message; for DROPPED, the run's first id
 * @param lastId  the highest message id this delivery is about: {@code seqno} for a message, the last id of the
 *                datagram for LOST, the run's last id for DROPPED
 * @param payload the application's bytes, up to the daemon's largest message (not copied: the array is the delivery's
 *                own); empty for LOST and DROPPED
 * @param kind    delivered, lost or dropped
 */
public record Delivery(int origin, int group, long seqno, long lastId, byte[] payload, Kind kind) {
    private static final byte[] NONE = new byte[0];

    /** Whether a delivery carries a message or reports that some will never arrive, and why. */
    public enum Kind {
        /** A message. */
        DELIVERED,
        /** The messages of one datagram: the daemon gave up recovering it (docs/api.md, "Delivery guarantees"). */
        LOST,
        /** A run of messages the daemon dropped for this connection, which read too slowly ("Backpressure"). */
        DROPPED
    }

    public Delivery {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(kind, "kind");
        if (lastId < seqno) {
            throw new IllegalArgumentException("a delivery about ids " + seqno + ".." + lastId);
        }
    }

    /** A delivered message. */
    public static Delivery delivered(int origin, int group, long seqno, byte[] payload) {
        return new Delivery(origin, group, seqno, seqno, payload, Kind.DELIVERED);
    }

    /** A datagram the daemon gave up on, named by its first message's id. */
    public static Delivery lost(int origin, int group, long seqno) {
        return new Delivery(origin, group, seqno, seqno + MessageId.PER_DATAGRAM - 1, NONE, Kind.LOST);
    }

    /** The messages with ids {@code firstId..lastId} the daemon dropped for this connection. */
    public static Delivery dropped(int origin, int group, long firstId, long lastId) {
        return new Delivery(origin, group, firstId, lastId, NONE, Kind.DROPPED);
    }

    /**
     * The payload as a read-only buffer over the same bytes ({@link #payload()} without a copy): position 0, limit
     * the payload's length. Empty for LOST and DROPPED.
     */
    public ByteBuffer payloadBuffer() {
        return ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /** Whether this is a notice, LOST or DROPPED: the messages it covers will never reach this connection. */
    public boolean isLost() {
        return kind != Kind.DELIVERED;
    }

    /**
     * Whether this delivery is about message {@code id} of (origin, group): a delivered message is its own id; a
     * LOST notice covers every message of its datagram, a DROPPED notice every message of its run, ids
     * {@link #seqno()} to {@link #lastId()}.
     */
    public boolean covers(long id) {
        return switch (kind) {
            case DELIVERED -> id == seqno;
            case LOST -> MessageId.sameDatagram(seqno, id);
            case DROPPED -> id >= seqno && id <= lastId;
        };
    }
}
