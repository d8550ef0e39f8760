package io.ricochet.fd;

/** The counters of a failure detector server, logged periodically and read by tests through {@link FdCounters}. */
public enum FdCounter {
    /** Datagrams read from the socket, valid or not. */
    DATAGRAMS_RECEIVED,
    /** Datagrams rejected by {@code FrameValidator} (or longer than any frame): counted and dropped. */
    MALFORMED,
    /** Datagrams without a valid authentication trailer (forged, another cluster's key, unknown key id): dropped. */
    UNAUTHENTIC,
    /** Authentic datagrams already taken from that source and frame type, or older than the replay window: dropped. */
    REPLAYED,
    /** Authentic datagrams sent further from this host's clock than {@code --max-clock-skew-ms}: dropped. */
    STALE,
    /** Valid frames of a type a detector neither answers nor expects (DATA, REPAIR, ...): dropped. */
    UNEXPECTED_FRAMES,
    /** HEARTBEATs sent to targets. */
    HEARTBEATS_SENT,
    /** HEARTBEATs received and answered with a HEARTBEAT_ACK (this detector being watched). */
    HEARTBEATS_ANSWERED,
    /**
     * HEARTBEATs of a detector listed in --watched-by that came from another address than its listed one: answered
     * at the listed one only (a rewritten source address, or a list naming another address of that detector).
     */
    HEARTBEATS_MISDIRECTED,
    /** HEARTBEATs of a detector not in --watched-by (when it lists any): left unanswered. */
    HEARTBEATS_UNLISTED,
    /** HEARTBEAT_ACKs that answered the open round: the target was alive. */
    ACKS_ACCEPTED,
    /** HEARTBEAT_ACKs for a round already closed: still a heartbeat, the target was alive (busy, perhaps). */
    ACKS_LATE,
    /** HEARTBEAT_ACKs for a round the target already answered, or older than its latest answer. */
    ACKS_DUPLICATE,
    /**
     * HEARTBEAT_ACKs from an id that is not a target, or for a round this run did not send (wrong sequence or send
     * time) or sent too long ago to check.
     */
    ACKS_UNKNOWN,
    /**
     * Ticks that ran more than two intervals after the previous one: this detector was starved of CPU, so it judged
     * nobody at them and counted no missed round.
     */
    LATE_TICKS,
    /** Transitions to failed, each reported once. */
    FAILURES_REPORTED,
    /** Transitions back to alive, each reported once. */
    RECOVERIES_REPORTED,
    /**
     * First answers of daemons a watch list added, reported as recoveries (their previous detector may have reported
     * them failed; the GMS ignores the recovery of a live node).
     */
    FIRST_ANSWERS_REPORTED,
    /** Watch lists taken from the GMS (each replaces the daemons this detector watches for the GMS). */
    WATCH_LISTS,
    /** Targets added by watch lists: they start with no history. */
    TARGETS_ADDED,
    /** Targets removed by watch lists: forgotten, without a verdict. */
    TARGETS_REMOVED,
    /** Datagrams the socket failed to send. */
    SEND_ERRORS,
    /** Exceptions caught in the pipeline; each one is also logged. */
    HANDLER_ERRORS
}
