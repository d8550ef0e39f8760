package io.ricochet.control.message;

/**
 * The type codes of the control protocol (the u8 after the length field), in one registry. Codes are grouped by
 * sender: 0x0_ daemon to GMS, 0x1_ failure detector to GMS, 0x2_ GMS to daemon.
 */
public final class MessageType {
    /** Daemon to GMS: this connection speaks for a node at a unicast address. */
    public static final int REGISTER = 0x01;
    /** Daemon to GMS: add a node to a group. */
    public static final int JOIN = 0x02;
    /** Daemon to GMS: remove a node from a group. */
    public static final int LEAVE = 0x03;
    /** Failure detector to GMS: a node stopped answering heartbeats. */
    public static final int NODE_FAILED = 0x10;
    /** Failure detector to GMS: a failed node answers heartbeats again. */
    public static final int NODE_RECOVERED = 0x11;
    /** Failure detector to GMS: a (rack) failure detector stopped answering. */
    public static final int DETECTOR_FAILED = 0x12;
    /** Failure detector to GMS: a failed failure detector answers again. */
    public static final int DETECTOR_RECOVERED = 0x13;
    /** Failure detector to GMS partition 0: this detector watches a rack (or stands by). */
    public static final int WATCH = 0x14;
    /** GMS to daemon: the full membership of one group. */
    public static final int GROUP_VIEW = 0x20;
    /** GMS to daemon: one node joined, left or failed in one group. */
    public static final int MEMBER_EVENT = 0x21;
    /** Either way: a request was refused or a frame was malformed. */
    public static final int ERROR = 0x22;
    /** GMS to client, first on a session: this replica leads the partition and serves it. */
    public static final int SERVING = 0x23;
    /** GMS to client, then close: this replica does not lead the partition; the leader is elsewhere. */
    public static final int REDIRECT = 0x24;
    /** GMS to failure detector: the daemons it is to watch now. */
    public static final int WATCH_LIST = 0x25;
    /** GMS to client: the partition's Raft term and the leader's commit index. */
    public static final int GMS_STATUS = 0x26;

    private MessageType() {
    }

    /** The name of {@code type}, or {@code UNKNOWN(0x..)}. */
    public static String name(int type) {
        return switch (type) {
            case REGISTER -> "REGISTER";
            case JOIN -> "JOIN";
            case LEAVE -> "LEAVE";
            case NODE_FAILED -> "NODE_FAILED";
            case NODE_RECOVERED -> "NODE_RECOVERED";
            case DETECTOR_FAILED -> "DETECTOR_FAILED";
            case DETECTOR_RECOVERED -> "DETECTOR_RECOVERED";
            case GROUP_VIEW -> "GROUP_VIEW";
            case MEMBER_EVENT -> "MEMBER_EVENT";
            case ERROR -> "ERROR";
            case SERVING -> "SERVING";
            case REDIRECT -> "REDIRECT";
            case WATCH -> "WATCH";
            case WATCH_LIST -> "WATCH_LIST";
            case GMS_STATUS -> "GMS_STATUS";
            default -> String.format("UNKNOWN(0x%02x)", type);
        };
    }
}
