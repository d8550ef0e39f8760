package io.ricochet.fd;

/**
 * What {@link FailureDetector#onAck} made of one HEARTBEAT_ACK. {@link #ACCEPTED} and {@link #LATE} are heartbeat
 * arrivals (the member is alive, and recovers if it was failed); the others are ignored.
 */
public enum AckResult {
    /** Answers the open round's ping: an arrival. */
    ACCEPTED,
    /** Answers the ping of an earlier round of this run, after the round closed: still an arrival. */
    LATE,
    /** Answers a round this member already answered, or one older than its latest answer (reordered). */
    DUPLICATE,
    /**
     * Names no round this run sent (none yet, ahead of the open round, another send time: an earlier run's ping), or
     * one too old to be checked.
     */
    UNKNOWN_SEQUENCE,
    /** From an id that is not a member. */
    UNKNOWN_MEMBER
}
