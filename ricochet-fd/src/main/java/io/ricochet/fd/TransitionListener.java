package io.ricochet.fd;

/**
 * Told of every verdict change of a {@link FailureDetector}, exactly once per change: a member that keeps missing
 * heartbeats is reported failed once, and recovered once when it answers again; and of the first answer of a member
 * added with its first answer to be reported ({@link #firstAnswer}). Called synchronously from
 * {@link FailureDetector#onTick} and {@link FailureDetector#onAck}; it must not call back into the detector.
 *
 * @param <A> the type of the address the driver attached to each member
 */
public interface TransitionListener<A> {
    /**
     * {@code member} missed at least the configured number of consecutive rounds, and either never answered or has
     * been silent for longer than its heartbeat history makes plausible (phi at or above the threshold).
     */
    void failed(int member, A address, long nowNs);

    /** {@code member}, reported failed before, answered a heartbeat of this run again (on time or late). */
    void recovered(int member, A address, long nowNs);

    /**
     * {@code member}, added by {@link FailureDetector#setMembers(java.util.Map, boolean)} with its first answer to be
     * reported, answered a heartbeat for the first time, without having been reported failed here (if it was, its
     * answer is a {@link #recovered} instead). Its previous detector may have reported it failed, and nobody else
     * would say it is alive. By default this is a {@link #recovered}.
     */
    default void firstAnswer(int member, A address, long nowNs) {
        recovered(member, address, nowNs);
    }
}
