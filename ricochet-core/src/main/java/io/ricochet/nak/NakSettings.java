package io.ricochet.nak;

import io.ricochet.setting.Setting;

/**
 * The receiver side's settings of the NAK layer, validated, as a protocol's config holds them; the declarations of
 * those the daemon and the simulator let a user set.
 *
 * @param nakEnabled       whether NAKs are sent at all; off, a loss is given up after {@code giveUpNs}
 * @param nakTimeoutNs     delay from discovery to the first NAK (paper: 100 ms)
 * @param retryNs          delay between NAKs for one loss (paper: 50 ms)
 * @param maxAttempts      NAKs sent for one loss before it is given up
 * @param giveUpNs         with NAK off: delay from discovery after which an unrecovered loss is given up
 * @param maxPendingLosses losses tracked at once; beyond it a new loss is given up at once
 * @param rateLimit        NAKs this node may send per second on average; 0 = unlimited
 */
public record NakSettings(boolean nakEnabled, long nakTimeoutNs, long retryNs, int maxAttempts, long giveUpNs,
                          int maxPendingLosses, int rateLimit) {

    /** Whether the NAK layer runs. */
    public static final Setting NAK = Setting.onOff("nak", true,
            "whether the NAK layer recovers what LEC cannot; off measures LEC alone");
    /** Delay from loss discovery to the first NAK (paper: 100 ms). */
    public static final Setting NAK_TIMEOUT = Setting.millis("nak-timeout-ms", 100,
            "delay from discovering a loss to its first NAK")
            .details("Each unanswered NAK doubles the wait after it, up to 8x; with the defaults of nak-timeout-ms, "
                    + "nak-retry-ms and nak-max-attempts a loss is given up (LOST reported) 3.25 s after discovery");
    /** Delay between NAKs for one loss (paper: 50 ms). */
    public static final Setting NAK_RETRY = Setting.millis("nak-retry-ms", 50, "delay between NAK retries");
    /** NAKs for one loss before it is given up. */
    public static final Setting NAK_MAX_ATTEMPTS = Setting.integer("nak-max-attempts", 10,
            "NAKs sent for one packet before it is reported lost").atLeast(1);
    /** NAKs this node may send per second. */
    public static final Setting NAK_RATE_LIMIT = Setting.integer("nak-rate-limit", 5000,
            "NAKs this node may send per second (0 = unlimited)").atLeast(0);
    /** Losses tracked at once by default. */
    public static final int DEFAULT_MAX_PENDING_LOSSES = 65_536;

    public NakSettings {
        require(nakTimeoutNs > 0, "nak-timeout", nakTimeoutNs, "must be positive");
        require(retryNs > 0, "nak-retry", retryNs, "must be positive");
        require(NAK_MAX_ATTEMPTS.allows(maxAttempts), "nak-max-attempts", maxAttempts,
                "must be " + NAK_MAX_ATTEMPTS.rangeText());
        require(giveUpNs > 0, "give-up", giveUpNs, "must be positive");
        require(maxPendingLosses >= 1, "max-pending-losses", maxPendingLosses, "must be at least 1");
        require(NAK_RATE_LIMIT.allows(rateLimit), "nak-rate-limit", rateLimit, "must be 0 (unlimited) or positive");
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    /**
     * How long the stream of a sender that left or failed is kept before it is pruned: twice the give-up time, so its
     * tail is still discovered and every loss of it given up and reported first.
     */
    public long departedStreamNs() {
        return 2 * giveUpAfterNs();
    }

    /**
     * How long after its discovery an unanswered loss is given up when every timer runs on time: the first delay,
     * then the wait after each NAK with {@link LossTracker}'s backoff. A sender keeps its packets at least this long.
     */
    public long giveUpAfterNs() {
        if (!nakEnabled) {
            return giveUpNs;
        }
        long total = nakTimeoutNs;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            total += retryNs << Math.min(attempt - 1, LossTracker.MAX_BACKOFF_DOUBLINGS);
        }
        return total;
    }

    /**
     * The NAK setters a protocol config's builder shares: it extends this, so {@code nakEnabled(false)} and the
     * others chain with its own setters, and builds its config with {@link #nakSettings()}. Defaults: the
     * declarations above, and the protocol's own give-up time (NAK off) and NAK rate limit.
     *
     * @param <B> the protocol config's builder
     */
    public abstract static class Builder<B extends Builder<B>> {
        private boolean nakEnabled = NAK.onDefault();
        private long nakTimeoutNs = NAK_TIMEOUT.nanosDefault();
        private long nakRetryNs = NAK_RETRY.nanosDefault();
        private int nakMaxAttempts = NAK_MAX_ATTEMPTS.intDefault();
        private long giveUpNs;
        private int maxPendingLosses = DEFAULT_MAX_PENDING_LOSSES;
        private int nakRateLimit;

        /** A builder whose give-up time with NAK off and NAK rate limit are the protocol's. */
        protected Builder(long defaultGiveUpNs, int defaultRateLimit) {
            giveUpNs = defaultGiveUpNs;
            nakRateLimit = defaultRateLimit;
        }

        /** This builder, as its own type. */
        protected abstract B self();

        public B nakEnabled(boolean v) {
            nakEnabled = v;
            return self();
        }

        public B nakTimeoutNs(long v) {
            nakTimeoutNs = v;
            return self();
        }

        public B nakRetryNs(long v) {
            nakRetryNs = v;
            return self();
        }

        public B nakMaxAttempts(int v) {
            nakMaxAttempts = v;
            return self();
        }

        /** With NAK off: the delay from discovery after which an unrecovered loss is given up. */
        public B giveUpNs(long v) {
            giveUpNs = v;
            return self();
        }

        public B maxPendingLosses(int v) {
            maxPendingLosses = v;
            return self();
        }

        public B nakRateLimit(int v) {
            nakRateLimit = v;
            return self();
        }

        /** The NAK settings given, validated. */
        protected NakSettings nakSettings() {
            return new NakSettings(nakEnabled, nakTimeoutNs, nakRetryNs, nakMaxAttempts, giveUpNs, maxPendingLosses,
                    nakRateLimit);
        }
    }
}
