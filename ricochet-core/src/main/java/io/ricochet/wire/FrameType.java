package io.ricochet.wire;

/**
 * The one registry of frame type ids on the wire. An id not listed here is rejected by {@link FrameValidator}.
 */
public final class FrameType {
    /** Application data multicast to a group: {@link DataFlyweight}. */
    public static final int DATA = 1;
    /** LEC repair, the XOR of up to {@link RepairFlyweight#MAX_ENTRIES} data packets: {@link RepairFlyweight}. */
    public static final int REPAIR = 2;
    /** Negative acknowledgement asking the original sender for one packet: {@link PacketRefFlyweight}. */
    public static final int NAK = 3;
    /** A data packet sent again by unicast in answer to a NAK: same layout as {@link DataFlyweight}. */
    public static final int RETRANSMIT = 4;
    /** "Not buffered any more": the answer to a NAK for a packet the sender no longer holds. */
    public static final int GONE = 5;

    /** A sender's highest seqno in a group, announced once a stream goes idle: {@link PacketRefFlyweight}. */
    public static final int SESSION = 6;

    /** A failure detector's ping to a daemon or to another detector: {@link HeartbeatFlyweight}. */
    public static final int HEARTBEAT = 7;
    /** The answer to a HEARTBEAT, echoing its sequence and send time: {@link HeartbeatFlyweight}. */
    public static final int HEARTBEAT_ACK = 8;

    /**
     * A member's highest seqno seen of a sender that failed, multicast to the group by every member when the GMS
     * reports the failure, so each receiver learns how far the crashed sender's stream went (its unannounced tail)
     * and reports what it misses of it: {@link PacketRefFlyweight}, origin = the failed sender.
     */
    public static final int TAIL = 9;

    /**
     * A receiver's word to a sender that it has resolved (delivered or given up) every packet of the sender's stream
     * in the group below the seqno, so it will never NAK them: once every member said so, the sender may drop them
     * from its retransmit buffer before their time is up. Unicast to the sender, one entry per group:
     * {@link StreamListFlyweight}.
     */
    public static final int STABLE = 10;

    /**
     * One LT-coded symbol of a range of the sender's own packets, multicast to the group in answer to NAKs for a
     * burst longer than LEC repairs (the fountain backup behind LEC, docs/design/fountain.md section 6):
     * {@link FountainFlyweight}.
     */
    public static final int FOUNTAIN = 11;

    /**
     * A joining (or restarted) member's request to a sender already in the group: from which seqno of your stream in
     * this group may I take your data? Unicast to the sender, echoed nonce in the last 8 bytes:
     * {@link PacketRefFlyweight} ({@link PacketRefFlyweight#JOIN_LENGTH}). docs/design/security.md, "Join points".
     */
    public static final int JOIN_PROBE = 12;
    /**
     * The sender's answer to a {@link #JOIN_PROBE}: the first seqno of its stream in the group the joiner is to take
     * (its next one), with the probe's nonce: {@link PacketRefFlyweight} ({@link PacketRefFlyweight#JOIN_LENGTH}).
     */
    public static final int JOIN_POINT = 13;

    /**
     * Several SESSIONs of one sender in one frame: its highest seqno in each listed group, multicast to one of them
     * whose members are exactly those of every group listed ({@link StreamListFlyweight}, flags 0). A receiver takes
     * each entry as the SESSION of that group, and ignores the entries of groups it is not in.
     */
    public static final int SESSIONS = 14;

    /**
     * Control frames of the other protocols (SRM, sender-based FEC, pbcast, QSM) use ids reserved per protocol below;
     * they share the DATA frame and validate their own control frames, after the common header checks.
     */
    public static final int SRM_FIRST = 16;
    public static final int SRM_LAST = 23;
    public static final int FEC_FIRST = 24;
    public static final int FEC_LAST = 31;
    public static final int PBCAST_FIRST = 32;
    public static final int PBCAST_LAST = 47;
    public static final int QSM_FIRST = 48;
    public static final int QSM_LAST = 55;

    /**
     * QSM's token (docs/design/qsm.md): unicast from each member of a group's ring to the next, carrying per sender
     * the collective acknowledgement and the recovery records of the ring: {@code qsm.QsmTokenFlyweight}.
     */
    public static final int QSM_TOKEN = QSM_FIRST;
    /**
     * A data packet a QSM member forwards by unicast to a ring peer that misses it (the source is the forwarder, the
     * origin the original sender): same layout as {@link DataFlyweight}.
     */
    public static final int QSM_REPAIR = QSM_FIRST + 1;

    /**
     * True for the frame types that are only ever sent to one process (NAK, RETRANSMIT, GONE, REPAIR, STABLE,
     * HEARTBEAT, HEARTBEAT_ACK, JOIN_PROBE, JOIN_POINT, QSM's token and repair): their authentication covers the
     * receiver's id, so a copy sent to another process is refused there (docs/design/security.md, "Bound to the
     * receiver"). The other protocols' reserved types are not bound.
     */
    public static boolean isBoundToReceiver(int type) {
        switch (type) {
            case NAK:
            case RETRANSMIT:
            case GONE:
            case REPAIR:
            case STABLE:
            case HEARTBEAT:
            case HEARTBEAT_ACK:
            case QSM_TOKEN:
            case QSM_REPAIR:
            case JOIN_PROBE:
            case JOIN_POINT:
                return true;
            default:
                return false;
        }
    }

    /** True for proactive repair frames (LEC repairs, sender-based FEC repairs): what overhead % counts. */
    public static boolean isProactiveRepair(int type) {
        return type == REPAIR || (type >= FEC_FIRST && type <= FEC_LAST);
    }

    /**
     * True for frames that tell how far a stream went without carrying any of it (SESSION, SESSIONS, TAIL): a
     * receiver that reads one before the data it announces takes that data for lost, so a batch is best read data
     * first.
     */
    public static boolean isProgressAnnouncement(int type) {
        return type == SESSION || type == SESSIONS || type == TAIL;
    }

    /** True for an id reserved to another protocol's control frames. */
    public static boolean isProtocolReserved(int type) {
        return type >= SRM_FIRST && type <= QSM_LAST;
    }

    /** Highest id in use by Ricochet's own frames; its ids are dense from 1. */
    public static final int MAX = SESSIONS;

    private FrameType() {
    }

    public static boolean isKnown(int type) {
        return type >= DATA && type <= MAX;
    }

    public static String name(int type) {
        switch (type) {
            case DATA:
                return "DATA";
            case REPAIR:
                return "REPAIR";
            case NAK:
                return "NAK";
            case RETRANSMIT:
                return "RETRANSMIT";
            case GONE:
                return "GONE";
            case SESSION:
                return "SESSION";
            case HEARTBEAT:
                return "HEARTBEAT";
            case HEARTBEAT_ACK:
                return "HEARTBEAT_ACK";
            case TAIL:
                return "TAIL";
            case STABLE:
                return "STABLE";
            case FOUNTAIN:
                return "FOUNTAIN";
            case JOIN_PROBE:
                return "JOIN_PROBE";
            case JOIN_POINT:
                return "JOIN_POINT";
            case SESSIONS:
                return "SESSIONS";
            case QSM_TOKEN:
                return "QSM_TOKEN";
            case QSM_REPAIR:
                return "QSM_REPAIR";
            default:
                return "UNKNOWN(" + type + ")";
        }
    }
}
