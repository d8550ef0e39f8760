package io.ricochet.srm;

import io.ricochet.setting.Setting;
import java.util.random.RandomGenerator;

/**
 * Immutable, validated settings of one {@link SrmEngine}. Build it with {@link #builder()}; an out-of-range value
 * is refused with a message naming the setting. Timer constants follow SRM (Floyd et al. 1997, section III).
 *
 * @param maxPayload          largest application payload in bytes (default 1024)
 * @param distanceNs          d: the one-way delay to any other member, used for every timer (datacenter: one
 *                            configured value instead of SRM's per-pair estimates; default 1 ms)
 * @param c1                  request timer: a loss waits uniform [C1·d, (C1+C2)·d] before its request (default 2)
 * @param c2                  see {@code c1} (default 2)
 * @param d1                  repair timer: a holder waits uniform [D1·d, (D1+D2)·d] before its repair (default 1)
 * @param d2                  see {@code d1} (default 1)
 * @param maxRequestRounds    request rounds (own requests sent plus back-offs on hearing others') after which a
 *                            loss is given up and reported lost (default 8)
 * @param maxBackoffExponent  the request timer is multiplied by 2^min(rounds, this) (default 6: at most 64·)
 * @param holdDownFactor      after sending or hearing a repair, requests for the packet are ignored for this many
 *                            times d (SRM: 3)
 * @param sessionIntervalNs   mean interval between a member's session messages in a group (default 1 s; 0 = off)
 * @param sessionIdleRounds   session messages a member still sends in a group after its last send or first
 *                            receipt there; then it goes quiet until the next (default 3)
 * @param sessionReportsHeard whether session messages list the highest seqno heard from each other sender, as in
 *                            SRM, or only the member's own highest sent (default true)
 * @param sendBufferCapacity  own sent payloads kept to answer requests (FIFO eviction, default 8192)
 * @param cacheCapacity       received payloads kept to answer other members' requests (FIFO eviction, default 4096)
 * @param maxPendingRequests  losses tracked at once; beyond it a new loss is given up at once (default 65 536)
 * @param maxPendingRepairs   scheduled repairs and hold-downs at once; beyond it requests go unanswered here
 *                            (default 4096)
 * @param streamWindow        seqnos a stream may run ahead of its oldest unresolved packet (default 16 384)
 */
public record SrmConfig(int maxPayload, long distanceNs, double c1, double c2, double d1, double d2,
                        int maxRequestRounds, int maxBackoffExponent, double holdDownFactor, long sessionIntervalNs,
                        int sessionIdleRounds, boolean sessionReportsHeard, int sendBufferCapacity,
                        int cacheCapacity, int maxPendingRequests, int maxPendingRepairs, int streamWindow) {

    private static final long MS = 1_000_000L;

    /** Session messages' mean interval, a setting of the simulator's (--srm-session-interval-ms). */
    public static final Setting SESSION_INTERVAL = Setting.millis("srm-session-interval-ms", 1_000,
            "with protocol srm: mean interval between a member's session messages in a group; 0 turns session "
                    + "messages off, so losses are found only from later packets, requests and repairs")
            .range(0, 3_600_000);

    public SrmConfig {
        require(maxPayload >= 1 && maxPayload <= SrmRepairFlyweight.MAX_PAYLOAD, "payload", maxPayload,
                "must be in 1.." + SrmRepairFlyweight.MAX_PAYLOAD);
        require(distanceNs > 0 && distanceNs <= 10_000 * MS, "distance", distanceNs, "must be in (0, 10 s]");
        require(c1 >= 0 && c2 >= 0 && c1 + c2 > 0 && c1 + c2 <= 1000, "c1, c2", c1 + ", " + c2,
                "must be >= 0 with 0 < c1 + c2 <= 1000");
        require(d1 >= 0 && d2 >= 0 && d1 + d2 <= 1000, "d1, d2", d1 + ", " + d2, "must be >= 0 with d1 + d2 <= 1000");
        require(maxRequestRounds >= 1 && maxRequestRounds <= 64, "max-request-rounds", maxRequestRounds,
                "must be in 1..64");
        require(maxBackoffExponent >= 0 && maxBackoffExponent <= 20, "max-backoff-exponent", maxBackoffExponent,
                "must be in 0..20");
        require(holdDownFactor >= 0 && holdDownFactor <= 1000, "hold-down", holdDownFactor, "must be in 0..1000");
        require(SESSION_INTERVAL.allows(sessionIntervalNs / (double) MS), "session-interval", sessionIntervalNs,
                "must be 0 (off) or positive, at most an hour");
        require(sessionIdleRounds >= 1 && sessionIdleRounds <= 1000, "session-idle-rounds", sessionIdleRounds,
                "must be in 1..1000");
        require(sendBufferCapacity >= 1, "send-buffer", sendBufferCapacity, "must be at least 1");
        require(cacheCapacity >= 1, "cache", cacheCapacity, "must be at least 1");
        require(maxPendingRequests >= 1, "max-pending-requests", maxPendingRequests, "must be at least 1");
        require(maxPendingRepairs >= 1, "max-pending-repairs", maxPendingRepairs, "must be at least 1");
        require(streamWindow >= 64, "stream-window", streamWindow, "must be at least 64");
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    /** True when members send session messages. */
    public boolean sessionsEnabled() {
        return sessionIntervalNs > 0;
    }

    /** A request timer after {@code rounds} rounds: 2^min(rounds, cap) · uniform [C1·d, (C1+C2)·d]. */
    public long requestDelayNs(RandomGenerator rng, int rounds) {
        int exponent = Math.min(rounds, maxBackoffExponent);
        long base = uniform(rng, c1 * distanceNs, (c1 + c2) * distanceNs);
        return Math.min(base, Long.MAX_VALUE >> (exponent + 2)) << exponent;
    }

    /** A repair timer: uniform [D1·d, (D1+D2)·d]. */
    public long repairDelayNs(RandomGenerator rng) {
        return uniform(rng, d1 * distanceNs, (d1 + d2) * distanceNs);
    }

    /** How long requests for a packet are ignored after a repair of it was sent or heard. */
    public long holdDownNs() {
        return (long) (holdDownFactor * distanceNs);
    }

    /** The next session message's delay: uniform [interval / 2, 3 · interval / 2), so members do not synchronise. */
    public long sessionDelayNs(RandomGenerator rng) {
        return uniform(rng, sessionIntervalNs / 2.0, sessionIntervalNs * 1.5);
    }

    private static long uniform(RandomGenerator rng, double lowNs, double highNs) {
        return (long) (lowNs + rng.nextDouble() * (highNs - lowNs));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Defaults: SRM's C1 = C2 = 2, D1 = D2 = 1, hold-down 3·d, d = 1 ms, a session message a second. */
    public static final class Builder {
        private int maxPayload = 1024;
        private long distanceNs = MS;
        private double c1 = 2;
        private double c2 = 2;
        private double d1 = 1;
        private double d2 = 1;
        private int maxRequestRounds = 8;
        private int maxBackoffExponent = 6;
        private double holdDownFactor = 3;
        private long sessionIntervalNs = SESSION_INTERVAL.nanosDefault();
        private int sessionIdleRounds = 3;
        private boolean sessionReportsHeard = true;
        private int sendBufferCapacity = 8192;
        private int cacheCapacity = 4096;
        private int maxPendingRequests = 65_536;
        private int maxPendingRepairs = 4096;
        private int streamWindow = 16_384;

        public Builder maxPayload(int v) {
            maxPayload = v;
            return this;
        }

        public Builder distanceNs(long v) {
            distanceNs = v;
            return this;
        }

        /** Sets C1 and C2. */
        public Builder requestTimer(double c1, double c2) {
            this.c1 = c1;
            this.c2 = c2;
            return this;
        }

        /** Sets D1 and D2. */
        public Builder repairTimer(double d1, double d2) {
            this.d1 = d1;
            this.d2 = d2;
            return this;
        }

        public Builder maxRequestRounds(int v) {
            maxRequestRounds = v;
            return this;
        }

        public Builder maxBackoffExponent(int v) {
            maxBackoffExponent = v;
            return this;
        }

        public Builder holdDownFactor(double v) {
            holdDownFactor = v;
            return this;
        }

        public Builder sessionIntervalNs(long v) {
            sessionIntervalNs = v;
            return this;
        }

        public Builder sessionIdleRounds(int v) {
            sessionIdleRounds = v;
            return this;
        }

        public Builder sessionReportsHeard(boolean v) {
            sessionReportsHeard = v;
            return this;
        }

        public Builder sendBufferCapacity(int v) {
            sendBufferCapacity = v;
            return this;
        }

        public Builder cacheCapacity(int v) {
            cacheCapacity = v;
            return this;
        }

        public Builder maxPendingRequests(int v) {
            maxPendingRequests = v;
            return this;
        }

        public Builder maxPendingRepairs(int v) {
            maxPendingRepairs = v;
            return this;
        }

        public Builder streamWindow(int v) {
            streamWindow = v;
            return this;
        }

        public SrmConfig build() {
            return new SrmConfig(maxPayload, distanceNs, c1, c2, d1, d2, maxRequestRounds, maxBackoffExponent,
                    holdDownFactor, sessionIntervalNs, sessionIdleRounds, sessionReportsHeard, sendBufferCapacity,
                    cacheCapacity, maxPendingRequests, maxPendingRepairs, streamWindow);
        }
    }
}
