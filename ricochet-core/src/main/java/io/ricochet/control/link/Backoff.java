package io.ricochet.control.link;

/** Reconnect delays: {@code initialMs}, doubling on every failure up to {@code maxMs}, back to the start on reset. */
final class Backoff {
    private final long initialMs;
    private final long maxMs;
    private long nextMs;

    Backoff(long initialMs, long maxMs) {
        if (initialMs <= 0 || maxMs < initialMs) {
            throw new IllegalArgumentException("need 0 < initialMs <= maxMs, got " + initialMs + ", " + maxMs);
        }
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.nextMs = initialMs;
    }

    /** The delay before the next attempt; each call doubles the one after, up to the cap. */
    long nextDelayMs() {
        long delayMs = nextMs;
        nextMs = Math.min(nextMs * 2, maxMs);
        return delayMs;
    }

    /** After a success: the next delay is the initial one again. */
    void reset() {
        nextMs = initialMs;
    }
}
