package io.ricochet.engine;

/**
 * A token bucket on caller-supplied time: at most {@code perSecond} acquisitions per second on average, with a
 * burst of {@code burst} after a quiet period; 0 per second means unlimited. The NAK layer caps a node's NAKs with
 * one (without it, a burst of losses under overload is NAK-ed every retry interval, the answers overflow the
 * receive buffers and the node stays collapsed after the load is gone; docs/results.md at a8cff48, "Daemon
 * throughput on real sockets"), and the daemon paces application sends with another.
 */
public final class TokenBucket {
    private final double perNs;
    private final double burst;
    private double tokens;
    private long lastNs;
    private boolean started;

    /**
     * @param perSecond acquisitions allowed per second on average (0 = no limit)
     * @param burst     acquisitions that may happen at once after a quiet period
     */
    public TokenBucket(int perSecond, int burst) {
        this.perNs = perSecond / 1e9;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
    }

    /** True if a token is available at {@code nowNs}; takes it if so. */
    public boolean tryAcquire(long nowNs) {
        if (perNs == 0) {
            return true;
        }
        refill(nowNs);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** The earliest time at or after {@code nowNs} when a token is available (takes none). */
    public long availableAtNs(long nowNs) {
        if (perNs == 0) {
            return nowNs;
        }
        refill(nowNs);
        return tokens >= 1 ? nowNs : nowNs + (long) Math.ceil((1 - tokens) / perNs);
    }

    private void refill(long nowNs) {
        if (started && nowNs > lastNs) {
            tokens = Math.min(burst, tokens + (nowNs - lastNs) * perNs);
            lastNs = nowNs;
        } else if (!started) {
            started = true;
            lastNs = nowNs;
        }
    }
}
