package io.ricochet.gms;

/** What a GMS replica counts, over its partitions; logged periodically at INFO and on shutdown by {@link GmsServer}. */
public enum GmsCounter {
    /** TCP connections admitted (daemons and failure detectors); those over a cap are counted below instead. */
    CONNECTIONS("connections"),
    /** Connections closed as they were accepted: the socket held {@code --max-connections} already. */
    CONNECTIONS_OVER_TOTAL("connections-over-total"),
    /** Connections closed as they were accepted: {@code --max-connections-per-address} from that address already. */
    CONNECTIONS_OVER_ADDRESS("connections-over-address"),
    /** REGISTER messages handled. */
    REGISTRATIONS("registrations"),
    /** JOIN requests carried out (including idempotent repeats and joins parked for a failed node). */
    JOINS("joins"),
    /** LEAVE requests carried out (including leaves of a group the node was not in). */
    LEAVES("leaves"),
    /** NODE_FAILED verdicts received. */
    FAILURES("failures"),
    /** NODE_RECOVERED verdicts received. */
    RECOVERIES("recoveries"),
    /** DETECTOR_FAILED verdicts received. */
    DETECTOR_FAILURES("detector-failures"),
    /** DETECTOR_RECOVERED verdicts received. */
    DETECTOR_RECOVERIES("detector-recoveries"),
    /** MEMBER_EVENT messages written to sessions. */
    EVENTS_PUSHED("events-pushed"),
    /** GROUP_VIEW messages written to sessions. */
    VIEWS_SENT("views-sent"),
    /** ERROR replies written (refusals and malformed frames). */
    ERRORS_SENT("errors-sent"),
    /** Frames that did not decode (each closed its connection). */
    MALFORMED_FRAMES("malformed-frames"),
    /** Sessions closed because they stopped reading and their output backed up. */
    SLOW_SESSIONS_CLOSED("slow-sessions-closed"),
    /**
     * Connections whose TLS handshake failed (a plaintext client, a certificate from another CA, expired or
     * missing): each was closed before any message was read.
     */
    TLS_FAILURES("tls-failures"),
    /** Connections closed because their TLS handshake did not finish within {@code --tls-handshake-timeout-ms}. */
    HANDSHAKE_TIMEOUTS("handshake-timeouts"),
    /**
     * Messages refused because the sender's certificate does not allow them (NOT_AUTHORIZED): a verdict not from a
     * detector, REGISTER / JOIN / LEAVE not from a daemon, REGISTER of another node than the certificate's.
     */
    ROLE_REFUSED("role-refused"),
    /** WATCH messages taken (a detector's session with partition 0). */
    WATCHES("watches"),
    /** WATCH_LIST messages written to detectors. */
    WATCH_LISTS_SENT("watch-lists-sent"),
    /** Sessions greeted with REDIRECT (this replica did not lead the partition) and closed. */
    REDIRECTS("redirects"),
    /** Requests the Raft log did not take (the replica lost the lead): each closed its session. */
    UNCOMMITTED("uncommitted"),
    /**
     * Times a session stopped being read because it had {@code --session-requests-in-flight} requests in the Raft
     * log not yet committed; it is read again once half of them are ({@link SessionPacer}).
     */
    SESSION_PAUSES("session-pauses"),
    /** Requests that waited for room among the partition's pending Raft requests ({@link RaftWindow}). */
    RAFT_WINDOW_WAITS("raft-window-waits"),
    /** JOINs refused TOO_MANY_GROUPS: the session was in {@link DaemonRequests#MAX_GROUPS_PER_SESSION} groups. */
    GROUP_LIMIT_REFUSALS("group-limit-refusals"),
    /** REGISTERs refused KEY_MISMATCH: the daemon named a key that differs from the cluster's ({@link KeyCheck}). */
    KEY_REFUSALS("key-refusals");

    private final String label;

    GmsCounter(String label) {
        this.label = label;
    }

    /** The name used in log lines. */
    public String label() {
        return label;
    }
}
