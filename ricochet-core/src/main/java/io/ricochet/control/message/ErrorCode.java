package io.ricochet.control.message;

/** The codes an {@link ErrorReply} carries (u16), in one registry. */
public final class ErrorCode {
    /** A frame could not be decoded (bad length, unknown type, truncated body, ...); the sender closes. */
    public static final int MALFORMED_FRAME = 1;
    /** The group belongs to another GMS partition; the message names it. */
    public static final int WRONG_PARTITION = 2;
    /** JOIN or LEAVE for a node this connection has not registered as. */
    public static final int NOT_REGISTERED = 3;
    /** JOIN with a protocol other than the group's. */
    public static final int PROTOCOL_MISMATCH = 4;
    /** JOIN to a group whose view would no longer fit in one frame. */
    public static final int GROUP_FULL = 5;
    /** A message this end never accepts (for instance GROUP_VIEW sent to the GMS). */
    public static final int UNEXPECTED_MESSAGE = 6;
    /** JOIN from a node the failure detector reported failed: it takes effect when the node recovers. */
    public static final int NODE_FAILED = 7;
    /**
     * The sender's certificate does not allow this message: verdicts come only from role detector; REGISTER, JOIN
     * and LEAVE only from role daemon, and REGISTER only for the node id the certificate names. Nothing changed.
     */
    public static final int NOT_AUTHORIZED = 8;
    /**
     * The replica that took a request could not commit it (it lost the lead of the partition, or is stopping): the
     * request changed nothing; the replica closes the session, and the client reconnects to the leader and sends
     * it again.
     */
    public static final int NOT_LEADER = 9;
    /**
     * JOIN of one group more than a daemon's session may be in at one partition (the GMS's bound per node, above
     * any daemon's max-groups): nothing changed; the session stays.
     */
    public static final int TOO_MANY_GROUPS = 10;
    /**
     * REGISTER naming a key whose fingerprint differs from the cluster's for that key id: the daemon's key file is
     * not the cluster's, so nobody could read its datagrams. Nothing changed; the daemon stops.
     */
    public static final int KEY_MISMATCH = 11;

    private ErrorCode() {
    }

    /** The name of {@code code}, or {@code CODE(n)}. */
    public static String name(int code) {
        return switch (code) {
            case MALFORMED_FRAME -> "MALFORMED_FRAME";
            case WRONG_PARTITION -> "WRONG_PARTITION";
            case NOT_REGISTERED -> "NOT_REGISTERED";
            case PROTOCOL_MISMATCH -> "PROTOCOL_MISMATCH";
            case GROUP_FULL -> "GROUP_FULL";
            case UNEXPECTED_MESSAGE -> "UNEXPECTED_MESSAGE";
            case NODE_FAILED -> "NODE_FAILED";
            case NOT_AUTHORIZED -> "NOT_AUTHORIZED";
            case NOT_LEADER -> "NOT_LEADER";
            case TOO_MANY_GROUPS -> "TOO_MANY_GROUPS";
            case KEY_MISMATCH -> "KEY_MISMATCH";
            default -> "CODE(" + code + ")";
        };
    }
}
