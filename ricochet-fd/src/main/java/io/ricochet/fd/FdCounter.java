package io.ricochet.fd;

/** The counters of a failure detector server, logged periodically and read by tests through {@link FdCounters}. */
public enum FdCounter {
    /** Datagrams read from the socket, valid or not. */
    DATAGRAMS_RECEIVED,
    /** Datagrams rejected by {@code FrameValidator} (or longer than any frame): counted and dropped. */
    MALFORMED,
    /** Valid frames of a type a detector neither answers nor expects (DATA, REPAIR, ...): dropped. */
    UNEXPECTED_FRAMES,
    /** HEARTBEATs sent to targets. */
    HEARTBEATS_SENT,
    /** HEARTBEATs received and answered with a HEARTBEAT_ACK (this detector being watched). */
    HEARTBEATS_ANSWERED,
    /** HEARTBEAT_ACKs that answered the open round: the target was alive. */
    ACKS_ACCEPTED,
    /** HEARTBEAT_ACKs for a round already closed. */
    ACKS_LATE,
    /** A second HEARTBEAT_ACK for the same round. */
    ACKS_DUPLICATE,
    /** HEARTBEAT_ACKs from an id that is not a target, or for a sequence never sent. */
    ACKS_UNKNOWN,
    /** Transitions to failed, each reported once. */
    FAILURES_REPORTED,
    /** Transitions back to alive, each reported once. */
    RECOVERIES_REPORTED,
    /** Datagrams the socket failed to send. */
    SEND_ERRORS,
    /** Exceptions caught in the pipeline; each one is also logged. */
    HANDLER_ERRORS
}
