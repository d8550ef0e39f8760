package io.ricochet.fd;

/** What {@link FailureDetector#onAck} made of one HEARTBEAT_ACK; everything but {@link #ACCEPTED} is ignored. */
public enum AckResult {
    /** Answers the current round's ping, first time: the member is alive (and recovers if it was failed). */
    ACCEPTED,
    /** Answers the current round's ping again. */
    DUPLICATE,
    /** Answers an earlier round's ping: it arrived after the round closed and counts for nothing. */
    LATE,
    /** A sequence number this detector has not sent (none yet, or ahead of the current round). */
    UNKNOWN_SEQUENCE,
    /** From an id that is not a member. */
    UNKNOWN_MEMBER
}
