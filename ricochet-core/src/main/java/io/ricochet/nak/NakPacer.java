package io.ricochet.nak;

/**
 * A token bucket that caps how many NAKs a node sends per second. Without it, a burst of losses under overload
 * is NAK-ed every retry interval, the answers overflow the receive buffers, more packets are lost, and the node
 * stays collapsed after the load is gone (measured in docs/results.md, daemon throughput). A NAK the bucket
 * refuses is tried again later and does not use up one of the loss's attempts: the limit delays recovery, it
 * never turns a recoverable loss into a LOST one. Time is an argument; 0 per second means unlimited.
 */
public final class NakPacer {
    private final double perNs;
    private final double burst;
    private double tokens;
    private long lastNs;
    private boolean started;

    /**
     * @param perSecond NAKs allowed per second on average (0 = no limit)
     * @param burst     NAKs that may go out at once after a quiet period
     */
    public NakPacer(int perSecond, int burst) {
        this.perNs = perSecond / 1e9;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
    }

    /** True if a NAK may be sent at {@code nowNs}; takes a token if so. */
    public boolean tryAcquire(long nowNs) {
        if (perNs == 0) {
            return true;
        }
        if (started) {
            tokens = Math.min(burst, tokens + (nowNs - lastNs) * perNs);
        }
        started = true;
        lastNs = nowNs;
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }
}
