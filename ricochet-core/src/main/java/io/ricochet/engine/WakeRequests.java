package io.ricochet.engine;

/**
 * An engine's requests for {@link ProtocolEngine#onTimer}: after each input it tells the {@link Outbox} its next
 * deadline, but only when that deadline is earlier than the one already requested, or the one requested has passed,
 * so a busy engine does not ask its driver for a timer per packet.
 */
public final class WakeRequests {
    private final Outbox outbox;
    private long requestedNs = Long.MAX_VALUE;

    public WakeRequests(Outbox outbox) {
        this.outbox = outbox;
    }

    /** The engine's next deadline is {@code deadlineNs} ({@link Long#MAX_VALUE}: none) at {@code nowNs}. */
    public void request(long deadlineNs, long nowNs) {
        if (deadlineNs != Long.MAX_VALUE && (deadlineNs < requestedNs || requestedNs - nowNs <= 0)) {
            requestedNs = deadlineNs;
            outbox.wakeAt(deadlineNs);
        }
    }
}
