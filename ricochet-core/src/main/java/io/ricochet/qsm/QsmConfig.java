package io.ricochet.qsm;

import io.ricochet.setting.Setting;
import io.ricochet.setting.Setting.Agreement;
import io.ricochet.wire.DataFlyweight;

/**
 * QSM's settings (docs/design/qsm.md, "Parameters").
 *
 * @param maxPayload         largest application payload in bytes (default 1024)
 * @param tokenIntervalNs    how long a member holds the token before passing it on: a ring of n members sees a round
 *                           every n intervals (default 1 ms; the paper's rings turned 1 to 5 times a second)
 * @param regenerationRounds rounds without the token after which a member with work makes a new one (default 3)
 * @param recoveryRounds     rounds a loss waits for a peer's or the sender's forward before it is reported lost
 *                           (default 8)
 * @param parkAfterIdleRounds rounds with nothing to acknowledge or recover after which the leader stops the token
 *                           (default 2, the paper's "2-3 token rounds")
 * @param maxSenders         sender entries a token carries, at most {@link QsmTokenFlyweight#MAX_SENDERS}
 * @param maxRecords         recovery records a token carries, at most {@link QsmTokenFlyweight#MAX_RECORDS}
 * @param sendBufferCapacity sent packets kept per group until the collective acknowledgement frees them
 * @param cacheCapacity      received packets kept to forward to peers (FIFO)
 * @param lossTableCapacity  losses tracked at once (more are reported lost at once)
 * @param streamWindow       seqnos a stream's receive window spans
 * @param partitionSize      most members of one partition: a ring unit larger than this is split into partitions of
 *                           at most this many, each with its own ring, and their leaders run a ring of their own (QSM
 *                           section 3, "Recovery in QSM is hierarchical"); a unit no larger stays one flat ring
 *                           (default 5)
 * @param regenerationFloorNs shortest wait, whatever the rounds, before a member with work makes a new token
 *                           (default 0: {@code regenerationRounds} rounds alone decide). A real host stalls a process
 *                           (scheduling, GC) for longer than a few token holds now and then, and each stall then
 *                           made a token that superseded the one still on its way; the daemon sets a floor of
 *                           100 ms. The simulator's processes never stall, so it keeps 0.
 */
public record QsmConfig(int maxPayload, long tokenIntervalNs, int regenerationRounds, int recoveryRounds,
                        int parkAfterIdleRounds, int maxSenders, int maxRecords, int sendBufferCapacity,
                        int cacheCapacity, int lossTableCapacity, int streamWindow, int partitionSize,
                        long regenerationFloorNs) {
    private static final long MS = 1_000_000L;
    /** Shortest token hold a user may set, in ms (1 µs: the engine's timers are in ns). */
    public static final double MIN_TOKEN_INTERVAL_MS = 0.001;
    /** Longest token hold a user may set, in ms (10 s). */
    public static final double MAX_TOKEN_INTERVAL_MS = 10_000;
    /** Smallest partition: a ring of one member recovers nothing from a peer. */
    public static final int MIN_PARTITION_SIZE = 2;
    /** Largest partition (a larger value keeps every ring flat, as a unit is at most this large in practice). */
    public static final int MAX_PARTITION_SIZE = 65_536;
    /** Longest regeneration floor a user may set, in ms (a minute). */
    public static final long MAX_REGENERATION_FLOOR_MS = 60_000;

    /** How long each ring member holds the token. */
    public static final Setting TOKEN_INTERVAL = Setting.decimal("qsm-token-interval-ms", "1",
            "with protocol qsm: how long each ring member holds the token before passing it on, "
                    + MIN_TOKEN_INTERVAL_MS + ".." + (long) MAX_TOKEN_INTERVAL_MS + " ms, decimals allowed (a ring "
                    + "of m members turns every m intervals; every member should agree)")
            .agreedBy(Agreement.GROUP)
            .details("A longer hold costs fewer control packets and recovers later (docs/results.md, \"QSM "
                    + "token-ring recovery\"); ignored by the other protocols");
    /** Most members of a partition. */
    public static final Setting PARTITION_SIZE = Setting.integer("qsm-partition-size", 5,
            "with protocol qsm: most members of a partition; a group larger than this is split into partitions with "
                    + "a token ring each, whose leaders run a ring of their own (" + MIN_PARTITION_SIZE + ".."
                    + MAX_PARTITION_SIZE + "; every member must agree)")
            .agreedBy(Agreement.GROUP)
            .details("The leaders' ring carries each partition's acknowledgements and losses (docs/design/qsm.md, "
                    + "\"Hierarchy\"); a group no larger is one flat ring. Members that split a group differently "
                    + "refuse each other's tokens")
            .range(MIN_PARTITION_SIZE, MAX_PARTITION_SIZE);
    /** The daemon's floor under token regeneration (the simulator keeps 0). */
    public static final Setting REGENERATION_FLOOR = Setting.millis("qsm-regeneration-floor-ms", 100,
            "with protocol qsm: shortest wait before a member with work that has not seen the token makes a new "
                    + "one (0.." + MAX_REGENERATION_FLOOR_MS + " ms; the rounds of the ring decide when longer): a "
                    + "process stalled for a few token holds otherwise regenerates tokens that supersede live ones")
            .details("Stalls come from scheduling and GC (docs/design/qsm.md, \"Why the daemon has a regeneration "
                    + "floor\")")
            .range(0, MAX_REGENERATION_FLOOR_MS);

    public QsmConfig {
        require(maxPayload >= 1 && maxPayload <= DataFlyweight.STANDARD_MAX_PAYLOAD, "payload", maxPayload,
                "1.." + DataFlyweight.STANDARD_MAX_PAYLOAD + " bytes");
        require(tokenIntervalNs >= 1000 && tokenIntervalNs <= 10_000 * MS, "token interval", tokenIntervalNs,
                "1 µs..10 s in ns");
        require(regenerationRounds >= 2 && regenerationRounds <= 100, "regeneration rounds", regenerationRounds,
                "2..100 (one round is the token's normal absence)");
        require(recoveryRounds >= 1 && recoveryRounds <= 100, "recovery rounds", recoveryRounds, "1..100");
        require(parkAfterIdleRounds >= 1 && parkAfterIdleRounds <= 100, "idle rounds", parkAfterIdleRounds,
                "1..100");
        require(maxSenders >= 1 && maxSenders <= QsmTokenFlyweight.MAX_SENDERS, "token senders", maxSenders,
                "1.." + QsmTokenFlyweight.MAX_SENDERS);
        require(maxRecords >= 1 && maxRecords <= QsmTokenFlyweight.MAX_RECORDS, "token records", maxRecords,
                "1.." + QsmTokenFlyweight.MAX_RECORDS);
        require(sendBufferCapacity >= 1 && sendBufferCapacity <= 1 << 20, "send buffer", sendBufferCapacity,
                "1..1048576 packets");
        require(cacheCapacity >= 1 && cacheCapacity <= 1 << 20, "cache", cacheCapacity, "1..1048576 packets");
        require(lossTableCapacity >= 1 && lossTableCapacity <= 1 << 20, "loss table", lossTableCapacity,
                "1..1048576 losses");
        require(streamWindow >= 64 && streamWindow <= 1 << 20, "stream window", streamWindow, "64..1048576");
        require(PARTITION_SIZE.allows(partitionSize), "partition size", partitionSize,
                PARTITION_SIZE.rangeText() + " members");
        require(REGENERATION_FLOOR.allows(regenerationFloorNs / (double) MS), "regeneration floor",
                regenerationFloorNs, REGENERATION_FLOOR.rangeText() + " ms in ns");
    }

    /**
     * The token hold of a user's setting in milliseconds (decimals allowed, e.g. 0.5), in ns: the one rule the
     * daemon's {@code qsm-token-interval-ms} and {@code simulate --qsm-token-interval-ms} share.
     *
     * @throws IllegalArgumentException saying the accepted range (the caller names the setting)
     */
    public static long tokenIntervalNsOfMs(double ms) {
        if (!(ms >= MIN_TOKEN_INTERVAL_MS && ms <= MAX_TOKEN_INTERVAL_MS)) {
            throw new IllegalArgumentException("must be milliseconds in [" + MIN_TOKEN_INTERVAL_MS + ", "
                    + (long) MAX_TOKEN_INTERVAL_MS + "], e.g. 1 (the default) or 0.5");
        }
        return Math.round(ms * MS);
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("qsm " + key + " " + value + ": must be " + rule);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link QsmConfig} from the defaults above. */
    public static final class Builder {
        private int maxPayload = 1024;
        private long tokenIntervalNs = tokenIntervalNsOfMs(TOKEN_INTERVAL.decimalDefault());
        private int regenerationRounds = 3;
        private int recoveryRounds = 8;
        private int parkAfterIdleRounds = 2;
        private int maxSenders = QsmTokenFlyweight.MAX_SENDERS;
        private int maxRecords = QsmTokenFlyweight.MAX_RECORDS;
        private int sendBufferCapacity = 8192;
        private int cacheCapacity = 4096;
        private int lossTableCapacity = 4096;
        private int streamWindow = 16_384;
        private int partitionSize = PARTITION_SIZE.intDefault();
        private long regenerationFloorNs;

        public Builder maxPayload(int v) {
            maxPayload = v;
            return this;
        }

        public Builder tokenIntervalNs(long v) {
            tokenIntervalNs = v;
            return this;
        }

        public Builder regenerationRounds(int v) {
            regenerationRounds = v;
            return this;
        }

        public Builder recoveryRounds(int v) {
            recoveryRounds = v;
            return this;
        }

        public Builder parkAfterIdleRounds(int v) {
            parkAfterIdleRounds = v;
            return this;
        }

        public Builder maxSenders(int v) {
            maxSenders = v;
            return this;
        }

        public Builder maxRecords(int v) {
            maxRecords = v;
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

        public Builder lossTableCapacity(int v) {
            lossTableCapacity = v;
            return this;
        }

        public Builder streamWindow(int v) {
            streamWindow = v;
            return this;
        }

        public Builder partitionSize(int v) {
            partitionSize = v;
            return this;
        }

        public Builder regenerationFloorNs(long v) {
            regenerationFloorNs = v;
            return this;
        }

        public QsmConfig build() {
            return new QsmConfig(maxPayload, tokenIntervalNs, regenerationRounds, recoveryRounds, parkAfterIdleRounds,
                    maxSenders, maxRecords, sendBufferCapacity, cacheCapacity, lossTableCapacity, streamWindow,
                    partitionSize, regenerationFloorNs);
        }
    }
}
