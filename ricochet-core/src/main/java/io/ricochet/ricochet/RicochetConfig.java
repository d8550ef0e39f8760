package io.ricochet.ricochet;

import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.nak.NakSettings;
import io.ricochet.wire.FountainFlyweight;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.RepairFlyweight;
import java.util.Map;

/**
 * Immutable, validated configuration of one {@link RicochetEngine}. Build it with {@link #builder()}; every
 * out-of-range value is refused with a message naming the setting.
 *
 * @param r                      rate-of-fire r: data packets per repair (shared by all groups, section 4)
 * @param defaultC               rate-of-fire c: repairs per data packet for groups without an override
 * @param cByGroup               per-group c overrides (overlapping groups may differ in c)
 * @param stagger                repair bin instances fed round-robin (section 4.2.2); 1 = no stagger
 * @param nakEnabled             whether the NAK layer runs (section 4.2.7); off measures LEC alone
 * @param nakTimeoutNs           delay from loss discovery to the first NAK (paper: 100 ms)
 * @param nakRetryNs             delay between NAK retries (paper: 50 ms)
 * @param nakMaxAttempts         NAKs sent for one packet before it is reported lost
 * @param lecGiveUpNs            with NAK off: delay from discovery after which an unrecovered loss is reported lost
 * @param maxPayload             largest application payload in bytes (application MTU, default 1024)
 * @param dataCacheCapacity      received payloads kept for XOR recovery (FIFO eviction)
 * @param retransmitCapacity     sent payloads kept to answer NAKs (FIFO eviction)
 * @param repairBufferCapacity   unusable repairs kept for later use (FIFO eviction)
 * @param maxPendingLosses       losses tracked at once; beyond it a new loss is given up at once
 * @param streamWindow           sequence numbers a stream may run ahead of its oldest unresolved packet
 * @param sessionDelayNs         with NAK on: a stream idle this long after a send announces its highest seqno
 *                               (tail-loss discovery, see {@code SessionAnnouncer}); 0 turns it off
 * @param nakRateLimit           NAKs this node may send per second on average (0 = unlimited), see TokenBucket
 * @param maxFrameLength         largest frame this node builds: a repair of r entries over the largest payload must
 *                               fit ({@link HeaderFlyweight#STANDARD_FRAME_LENGTH} by default; the daemon derives it
 *                               from its mtu setting)
 * @param stabilityIntervalNs    with NAK on: how often a receiver tells each sender how far it resolved its stream
 *                               (STABLE), so senders drop packets every member has from their retransmit buffer
 *                               early; 0 turns it off (the default here, so the simulator keeps the paper's
 *                               traffic; the daemon's default is on)
 * @param stabilityEvery         with stability on: a round of reports is also due once this many packets were
 *                               delivered since the last one (0 = only every interval), so that at high rates a
 *                               sender's retransmit buffer follows its receivers closely without a short interval
 *                               that would add reports at light load
 * @param sendWindow             with stability on: packets this node may have sent to one group that some member
 *                               has not reported resolved; the next send there waits for a report, or until the
 *                               window's oldest packet was kept its retention time (flow control that keeps a fast
 *                               sender from overrunning its slowest receiver); 0 turns it off (the default here: the
 *                               simulator does not pace its senders)
 * @param fountainBackup         with NAK on: NAKs for a run of a sender's packets longer than stagger x r are
 *                               answered with LT-coded symbols of the run multicast to the group (the fountain backup
 *                               behind LEC, docs/design/fountain.md section 6); off by default
 * @param tuning                 rate-of-fire tuning: each group's c set by a controller from the losses this node sees
 *                               ({@code lec.tuning}); {@link TuningSettings#OFF} by default, keeping every c as
 *                               configured
 */
public record RicochetConfig(int r, double defaultC, Map<Integer, Double> cByGroup, int stagger,
                           boolean nakEnabled, long nakTimeoutNs, long nakRetryNs, int nakMaxAttempts,
                           long lecGiveUpNs, int maxPayload, int dataCacheCapacity, int retransmitCapacity,
                           int repairBufferCapacity, int maxPendingLosses, int streamWindow,
                           long sessionDelayNs, int nakRateLimit, int maxFrameLength, long stabilityIntervalNs,
                           int stabilityEvery, int sendWindow, boolean fountainBackup, TuningSettings tuning) {

    private static final long MS = 1_000_000L;

    public RicochetConfig {
        cByGroup = Map.copyOf(cByGroup);
        require(r >= 1 && r <= RepairFlyweight.MAX_ENTRIES, "r", r, "must be in 1.." + RepairFlyweight.MAX_ENTRIES);
        require(defaultC >= 0 && defaultC <= 64, "c", defaultC, "must be in 0..64");
        for (Map.Entry<Integer, Double> e : cByGroup.entrySet()) {
            require(e.getValue() >= 0 && e.getValue() <= 64, "c for group " + e.getKey(), e.getValue(),
                    "must be in 0..64");
        }
        require(stagger >= 1 && stagger <= 64, "stagger", stagger, "must be in 1..64");
        require(nakTimeoutNs > 0, "nak-timeout", nakTimeoutNs, "must be positive");
        require(nakRetryNs > 0, "nak-retry", nakRetryNs, "must be positive");
        require(nakMaxAttempts >= 1, "nak-max-attempts", nakMaxAttempts, "must be at least 1");
        require(lecGiveUpNs > 0, "lec-give-up", lecGiveUpNs, "must be positive");
        require(maxPayload >= 1, "payload", maxPayload, "must be at least 1");
        require(maxFrameLength >= HeaderFlyweight.MIN_MTU - HeaderFlyweight.IP_UDP_OVERHEAD - 32
                        && maxFrameLength <= HeaderFlyweight.MAX_FRAME_LENGTH, "max frame length", maxFrameLength,
                "must be in " + (HeaderFlyweight.MIN_MTU - HeaderFlyweight.IP_UDP_OVERHEAD - 32) + ".."
                        + HeaderFlyweight.MAX_FRAME_LENGTH);
        requireRepairFits(r, maxPayload, 0, maxFrameLength);
        require(dataCacheCapacity >= 1, "data-cache", dataCacheCapacity, "must be at least 1");
        require(retransmitCapacity >= 1, "retransmit-buffer", retransmitCapacity, "must be at least 1");
        require(repairBufferCapacity >= 0, "repair-buffer", repairBufferCapacity, "must be 0 or more");
        require(maxPendingLosses >= 1, "max-pending-losses", maxPendingLosses, "must be at least 1");
        require(streamWindow >= 64, "stream-window", streamWindow, "must be at least 64");
        require(sessionDelayNs >= 0, "session-delay", sessionDelayNs, "must be 0 (off) or positive");
        require(nakRateLimit >= 0, "nak-rate-limit", nakRateLimit, "must be 0 (unlimited) or positive");
        require(stabilityIntervalNs >= 0, "stability-interval", stabilityIntervalNs, "must be 0 (off) or positive");
        require(stabilityEvery >= 0, "stability-every", stabilityEvery, "must be 0 (off) or positive");
        require(sendWindow >= 0, "send-window", sendWindow, "must be 0 (off) or positive");
        require(tuning != null, "tuning", "null", "must be given (TuningSettings.OFF for none)");
        if (fountainBackup) {
            require(nakEnabled, "fountain-backup", "on", "needs the NAK layer (nak on): the fountain answers NAKs");
            int fit = FountainFlyweight.maxPackets(maxPayload, maxFrameLength);
            require(fit > stagger * r, "fountain-backup", "on", "a range must hold more than stagger x r = "
                    + stagger * r + " packets, but only " + fit + " of " + maxPayload + " bytes fit one frame; "
                    + "lower stagger or r, or the payload");
        }
    }

    /** True when receivers report how far they resolved each stream (NAK on and a positive interval). */
    public boolean stabilityEnabled() {
        return nakEnabled && stabilityIntervalNs > 0;
    }

    /** True when idle streams announce their highest seqno (NAK on and a positive delay). */
    public boolean sessionsEnabled() {
        return nakEnabled && sessionDelayNs > 0;
    }

    /**
     * Checks that a repair of {@code r} entries, each with a seal of {@code sealLength} bytes (0 in an
     * unauthenticated cluster), over payloads of {@code maxPayload} bytes fits one frame of {@code maxFrameLength}.
     *
     * @throws IllegalArgumentException naming the {@code payload} setting and its largest value otherwise
     */
    public static void requireRepairFits(int r, int maxPayload, int sealLength, int maxFrameLength) {
        int maxFit = maxFrameLength - RepairFlyweight.frameLength(r, 0, sealLength);
        require(maxPayload <= maxFit, "payload", maxPayload, "must be in 1.." + maxFit + " so a repair of r=" + r
                + (sealLength > 0 ? " with the origins' " + sealLength + "-byte seals" : "")
                + " fits one datagram under the MTU (" + (maxFrameLength == HeaderFlyweight.STANDARD_FRAME_LENGTH
                ? "1500 bytes" : "frames of at most " + maxFrameLength + " bytes") + "; see the mtu setting)");
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    /** Rate-of-fire c for {@code group}. */
    public double c(int group) {
        Double c = cByGroup.get(group);
        return c == null ? defaultC : c;
    }

    /** The NAK layer's receiver-side settings (with NAK off, LEC gives a loss up after {@code lecGiveUpNs}). */
    public NakSettings nakSettings() {
        return new NakSettings(nakEnabled, nakTimeoutNs, nakRetryNs, nakMaxAttempts, lecGiveUpNs, maxPendingLosses,
                nakRateLimit);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Defaults follow the paper's evaluation: (r, c) = (8, 5), stagger 1, NAK at 100 ms then every 50 ms. */
    public static final class Builder {
        private int r = 8;
        private double defaultC = 5;
        private Map<Integer, Double> cByGroup = Map.of();
        private int stagger = 1;
        private boolean nakEnabled = true;
        private long nakTimeoutNs = 100 * MS;
        private long nakRetryNs = 50 * MS;
        private int nakMaxAttempts = 10;
        private long lecGiveUpNs = 2_000 * MS;
        private int maxPayload = 1024;
        private int maxFrameLength = HeaderFlyweight.STANDARD_FRAME_LENGTH;
        private int dataCacheCapacity = 4096;
        private int retransmitCapacity = 8192;
        private int repairBufferCapacity = 512;
        private int maxPendingLosses = 65_536;
        private int streamWindow = 16_384;
        private long sessionDelayNs = 50 * MS;
        private long stabilityIntervalNs;
        private int stabilityEvery;
        private int sendWindow;
        private int nakRateLimit = 5_000;
        private boolean fountainBackup;
        private TuningSettings tuning = TuningSettings.OFF;

        public Builder r(int v) {
            r = v;
            return this;
        }

        public Builder c(double v) {
            defaultC = v;
            return this;
        }

        public Builder cByGroup(Map<Integer, Double> v) {
            cByGroup = v;
            return this;
        }

        public Builder stagger(int v) {
            stagger = v;
            return this;
        }

        public Builder nakEnabled(boolean v) {
            nakEnabled = v;
            return this;
        }

        public Builder nakTimeoutNs(long v) {
            nakTimeoutNs = v;
            return this;
        }

        public Builder nakRetryNs(long v) {
            nakRetryNs = v;
            return this;
        }

        public Builder nakMaxAttempts(int v) {
            nakMaxAttempts = v;
            return this;
        }

        public Builder lecGiveUpNs(long v) {
            lecGiveUpNs = v;
            return this;
        }

        public Builder maxFrameLength(int v) {
            maxFrameLength = v;
            return this;
        }

        public Builder maxPayload(int v) {
            maxPayload = v;
            return this;
        }

        public Builder dataCacheCapacity(int v) {
            dataCacheCapacity = v;
            return this;
        }

        public Builder retransmitCapacity(int v) {
            retransmitCapacity = v;
            return this;
        }

        public Builder repairBufferCapacity(int v) {
            repairBufferCapacity = v;
            return this;
        }

        public Builder maxPendingLosses(int v) {
            maxPendingLosses = v;
            return this;
        }

        public Builder streamWindow(int v) {
            streamWindow = v;
            return this;
        }

        public Builder stabilityIntervalNs(long v) {
            stabilityIntervalNs = v;
            return this;
        }

        public Builder stabilityEvery(int v) {
            stabilityEvery = v;
            return this;
        }

        public Builder sessionDelayNs(long v) {
            sessionDelayNs = v;
            return this;
        }

        public Builder nakRateLimit(int v) {
            nakRateLimit = v;
            return this;
        }

        public Builder sendWindow(int v) {
            sendWindow = v;
            return this;
        }

        public Builder fountainBackup(boolean v) {
            fountainBackup = v;
            return this;
        }

        /** Rate-of-fire tuning ({@link TuningSettings#OFF} by default). */
        public Builder tuning(TuningSettings v) {
            tuning = v;
            return this;
        }

        public RicochetConfig build() {
            return new RicochetConfig(r, defaultC, cByGroup, stagger, nakEnabled, nakTimeoutNs, nakRetryNs,
                    nakMaxAttempts, lecGiveUpNs, maxPayload, dataCacheCapacity, retransmitCapacity,
                    repairBufferCapacity, maxPendingLosses, streamWindow, sessionDelayNs, nakRateLimit,
                    maxFrameLength, stabilityIntervalNs, stabilityEvery, sendWindow, fountainBackup, tuning);
        }
    }
}
