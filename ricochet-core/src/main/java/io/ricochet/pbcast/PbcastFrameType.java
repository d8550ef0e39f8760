package io.ricochet.pbcast;

import io.ricochet.wire.FrameType;

/**
 * The frame type ids of pbcast's control frames, taken from the range {@link FrameType#PBCAST_FIRST}..
 * {@link FrameType#PBCAST_LAST} that the shared registry reserves for this protocol. Data travels in the shared
 * {@link FrameType#DATA} frame. See {@code docs/design/pbcast.md}.
 */
public final class PbcastFrameType {
    /** A gossip message: a digest of the gossiper's message buffer for one group ({@link DigestFlyweight}). */
    public static final int DIGEST = FrameType.PBCAST_FIRST;
    /** A solicitation: "send me this message", answering a digest of a given round ({@link SolicitFlyweight}). */
    public static final int REQUEST = FrameType.PBCAST_FIRST + 1;
    /** A data packet sent again by a gossiper, by unicast or multicast: the layout of the DATA frame. */
    public static final int RETRANSMIT = FrameType.PBCAST_FIRST + 2;
    /** Pbcast-local: "this gossiper has this message", sent to a random neighbour ({@link SolicitFlyweight}). */
    public static final int INFO = FrameType.PBCAST_FIRST + 3;
    /** Pbcast-local: a neighbour's request that the gossiper multicast a message ({@link SolicitFlyweight}). */
    public static final int MCAST = FrameType.PBCAST_FIRST + 4;

    static {
        if (MCAST > FrameType.PBCAST_LAST) {
            throw new ExceptionInInitializerError("pbcast frame types overflow their reserved range");
        }
    }

    private PbcastFrameType() {
    }

    /** True for one of the ids above. */
    public static boolean isPbcast(int type) {
        return type >= DIGEST && type <= MCAST;
    }

    public static String name(int type) {
        switch (type) {
            case DIGEST:
                return "PBCAST_DIGEST";
            case REQUEST:
                return "PBCAST_REQUEST";
            case RETRANSMIT:
                return "PBCAST_RETRANSMIT";
            case INFO:
                return "PBCAST_INFO";
            case MCAST:
                return "PBCAST_MCAST";
            default:
                return FrameType.name(type);
        }
    }
}
