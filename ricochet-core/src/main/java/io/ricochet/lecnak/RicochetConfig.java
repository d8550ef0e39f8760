package io.ricochet.lecnak;

import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.nak.NakSettings;
import io.ricochet.setting.Setting;
import io.ricochet.setting.Setting.Agreement;
import io.ricochet.wire.FountainFlyweight;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.RepairFlyweight;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable, validated configuration of one {@link RicochetEngine}. Build it with {@link #builder()}; every
 * out-of-range value is refused with a message naming the setting.
 *
 * @param r                      rate-of-fire r: data packets per repair (shared by all groups, section 4)
 * @param defaultC               rate-of-fire c: repairs per data packet for groups without an override
 * @param cByGroup               per-group c overrides (overlapping groups may differ in c)
 * @param stagger                repair bin instances fed round-robin (section 4.2.2); 1 = no stagger
 * @param nakSettings            the NAK layer (section 4.2.7): whether it runs (off measures LEC alone), its timers,
 *                               its rate limit, the losses tracked at once, and with NAK off the delay from discovery
 *                               after which an unrecovered loss is reported lost
 * @param maxPayload             largest application payload in bytes (application MTU, default 1024)
 * @param dataCacheCapacity      received payloads kept for XOR recovery (FIFO eviction)
 * @param retransmitCapacity     sent payloads kept to answer NAKs (FIFO eviction)
 * @param repairBufferCapacity   unusable repairs kept for later use (FIFO eviction)
 * @param streamWindow           sequence numbers a stream may run ahead of its oldest unresolved packet
 * @param sessionDelayNs         with NAK on: a stream idle this long after a send announces its highest seqno
 *                               (tail-loss discovery, see {@code SessionAnnouncer}); 0 turns it off
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
                           NakSettings nakSettings, int maxPayload, int dataCacheCapacity, int retransmitCapacity,
                           int repairBufferCapacity, int streamWindow, long sessionDelayNs, int maxFrameLength,
                           long stabilityIntervalNs, int stabilityEvery, int sendWindow, boolean fountainBackup,
                           TuningSettings tuning) {

    /** Rate-of-fire r. */
    public static final Setting R = Setting.integer("r", 8, "rate-of-fire r: data packets XORed into one repair")
            .range(1, RepairFlyweight.MAX_ENTRIES);
    /** Rate-of-fire c. */
    public static final Setting C = Setting.decimal("c", "5",
            "rate-of-fire c: receivers each repair is sent to, so c repairs go out per r data packets received; "
                    + "decimals allowed").range(0, 64);
    /** Repair bins per group. */
    public static final Setting STAGGER = Setting.integer("stagger", 1,
            "repair bins per group fed round-robin, so a loss burst of up to stagger packets lands in different "
                    + "repairs; 1 = no stagger").details("Raise it for bursty loss").range(1, 64);
    /** Tail-loss discovery by idle streams. */
    public static final Setting SESSION_DELAY = Setting.millis("session-delay-ms", 50,
            "with NAK on, a sender idle this long on a group announces its highest sequence number, so losses at "
                    + "the tail of a burst are discovered; 0 = off").atLeast(0);
    /** The largest payload. */
    public static final Setting PAYLOAD = Setting.integer("payload", 1024,
            "largest payload of the engine's datagrams in bytes; an application message is at most this less 1; a "
                    + "repair of r of them must fit the mtu")
            .details("The 1 byte is the datagram's kind byte; the mtu bounds it from above").atLeast(1);
    /** Received packets kept for XOR recovery. */
    public static final Setting DATA_CACHE = Setting.integer("data-cache", 4096,
            "received packets each node keeps for XOR recovery").details("Evictions are counted").atLeast(1);
    /** Sent packets kept to answer NAKs (the daemon's default; see {@link #LIBRARY_RETRANSMIT_CAPACITY}). */
    public static final Setting RETRANSMIT_BUFFER = Setting.integer("retransmit-buffer", 65_536,
            "sent packets kept at most to answer NAKs; each is kept for the NAK give-up time, so this divided by "
                    + "that time is the highest sustained send rate")
            .details("A sent packet is kept until every member of its group reported it resolved "
                    + "(stability-interval-ms), at most the NAK give-up time: the daemon paces senders so that no "
                    + "packet a member may still ask for is evicted (without reports, retransmit-buffer / 3.25 s, "
                    + "about 20 000/s, is the highest sustained send rate)")
            .atLeast(1);
    /** Unusable repairs kept for later. */
    public static final Setting REPAIR_BUFFER = Setting.integer("repair-buffer", 512,
            "repairs missing two or more packets each node keeps for later use").details("Evictions are counted")
            .atLeast(0);
    /** Receivers' progress reports (the daemon's default; off in {@link #builder()}). */
    public static final Setting STABILITY_INTERVAL = Setting.millis("stability-interval-ms", 100,
            "how often a receiver tells each sender how far it resolved its stream, so the sender drops packets "
                    + "every member has from its retransmit buffer early (0 = off: each is kept the NAK give-up time)")
            .details("One STABLE per sender per interval, an entry per group that moved (STABLES_SENT, "
                    + "STABLES_RECEIVED, STABLE_RELEASES)")
            .atLeast(0);
    /** Flow control's window (the daemon's default; off in {@link #builder()}). */
    public static final Setting SEND_WINDOW = Setting.integer("send-window", 4096,
            "packets this daemon may have sent to one group beyond what some member has reported receiving (flow "
                    + "control: a sender is held to its slowest receiver); the next send there waits for a report, "
                    + "or until the window's oldest packet has been kept the NAK give-up time (0 = off; needs "
                    + "stability-interval-ms)")
            .details("A member's progress is what its STABLE reports say arrived or is known missing. A member that "
                    + "stops reporting slows the sender to send-window per give-up time (3.25 s at the defaults: "
                    + "about 1 260 packets/s) until the GMS removes it (docs/design/daemon.md, \"Flow control\")")
            .atLeast(0);
    /** Progress reports by count (the daemon's default; off in {@link #builder()}). */
    public static final Setting STABILITY_EVERY = Setting.integer("stability-every", 128,
            "a receiver also reports its progress once it has delivered this many packets since its last report "
                    + "(0 = only every stability-interval-ms): at high rates a sender's retransmit buffer then "
                    + "follows its receivers closely")
            .details("Within a fraction of a millisecond, which send-window relies on (docs/design/daemon.md, "
                    + "\"Flow control\")")
            .atLeast(0);
    /** The fountain backup behind LEC. */
    public static final Setting FOUNTAIN_BACKUP = Setting.onOff("fountain-backup", false,
            "with protocol ricochet and nak on: NAKs for a burst of a sender's packets longer than stagger x r are "
                    + "answered with fountain (LT) symbols of the burst multicast to the group (every member must "
                    + "agree)")
            .agreedBy(Agreement.GROUP)
            .details("One symbol repairs a different missing packet at each receiver (docs/design/fountain.md, "
                    + "section 6; counters FOUNTAIN_*, recoveries labelled fountain); a node with it off counts "
                    + "FOUNTAIN frames invalid");

    /**
     * Sent payloads kept to answer NAKs in a config built without setting it (the simulator's): smaller than the
     * daemon's {@link #RETRANSMIT_BUFFER}, which also has to cover a real sender's bursts.
     */
    public static final int LIBRARY_RETRANSMIT_CAPACITY = 8192;
    /** Losses given up with NAK off, by default. */
    private static final long DEFAULT_LEC_GIVE_UP_MS = 2_000;
    /** Streams run at most this far ahead of their oldest unresolved packet, by default. */
    private static final int DEFAULT_STREAM_WINDOW = 16_384;

    private static final long MS = 1_000_000L;

    public RicochetConfig {
        cByGroup = Map.copyOf(cByGroup);
        Objects.requireNonNull(nakSettings, "nakSettings");
        require(R.allows(r), "r", r, "must be in " + R.rangeText());
        require(C.allows(defaultC), "c", defaultC, "must be in " + C.rangeText());
        for (Map.Entry<Integer, Double> e : cByGroup.entrySet()) {
            require(C.allows(e.getValue()), "c for group " + e.getKey(), e.getValue(),
                    "must be in " + C.rangeText());
        }
        require(STAGGER.allows(stagger), "stagger", stagger, "must be in " + STAGGER.rangeText());
        require(PAYLOAD.allows(maxPayload), "payload", maxPayload, "must be " + PAYLOAD.rangeText());
        require(maxFrameLength >= HeaderFlyweight.MIN_MTU - HeaderFlyweight.IP_UDP_OVERHEAD - 32
                        && maxFrameLength <= HeaderFlyweight.MAX_FRAME_LENGTH, "max frame length", maxFrameLength,
                "must be in " + (HeaderFlyweight.MIN_MTU - HeaderFlyweight.IP_UDP_OVERHEAD - 32) + ".."
                        + HeaderFlyweight.MAX_FRAME_LENGTH);
        requireRepairFits(r, maxPayload, 0, maxFrameLength);
        require(DATA_CACHE.allows(dataCacheCapacity), "data-cache", dataCacheCapacity,
                "must be " + DATA_CACHE.rangeText());
        require(RETRANSMIT_BUFFER.allows(retransmitCapacity), "retransmit-buffer", retransmitCapacity,
                "must be " + RETRANSMIT_BUFFER.rangeText());
        require(REPAIR_BUFFER.allows(repairBufferCapacity), "repair-buffer", repairBufferCapacity,
                "must be " + REPAIR_BUFFER.rangeText());
        require(streamWindow >= 64, "stream-window", streamWindow, "must be at least 64");
        // 0 ms is 0 ns: the bounds of the time settings hold in nanoseconds too.
        require(SESSION_DELAY.allows(sessionDelayNs), "session-delay", sessionDelayNs, "must be 0 (off) or positive");
        require(STABILITY_INTERVAL.allows(stabilityIntervalNs), "stability-interval", stabilityIntervalNs,
                "must be 0 (off) or positive");
        require(STABILITY_EVERY.allows(stabilityEvery), "stability-every", stabilityEvery,
                "must be 0 (off) or positive");
        require(SEND_WINDOW.allows(sendWindow), "send-window", sendWindow, "must be 0 (off) or positive");
        require(tuning != null, "tuning", "null", "must be given (TuningSettings.OFF for none)");
        if (fountainBackup) {
            require(nakSettings.nakEnabled(), "fountain-backup", "on",
                    "needs the NAK layer (nak on): the fountain answers NAKs");
            int fit = FountainFlyweight.maxPackets(maxPayload, maxFrameLength);
            require(fit > stagger * r, "fountain-backup", "on", "a range must hold more than stagger x r = "
                    + stagger * r + " packets, but only " + fit + " of " + maxPayload + " bytes fit one frame; "
                    + "lower stagger or r, or the payload");
        }
    }

    /** True when receivers report how far they resolved each stream (NAK on and a positive interval). */
    public boolean stabilityEnabled() {
        return nakSettings.nakEnabled() && stabilityIntervalNs > 0;
    }

    /** True when idle streams announce their highest seqno (NAK on and a positive delay). */
    public boolean sessionsEnabled() {
        return nakSettings.nakEnabled() && sessionDelayNs > 0;
    }

    /**
     * The largest r whose full repair (entries with seals of {@code sealLength} bytes, payloads of {@code maxPayload})
     * fits one frame of {@code maxFrameLength}, at most {@link RepairFlyweight#MAX_ENTRIES}: how far a tuned r may go.
     */
    public static int maxR(int maxPayload, int sealLength, int maxFrameLength) {
        int room = maxFrameLength - RepairFlyweight.frameLength(0, maxPayload, sealLength);
        return Math.max(0, Math.min(RepairFlyweight.MAX_ENTRIES, room / (RepairFlyweight.ENTRY_LENGTH + sealLength)));
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

    public static Builder builder() {
        return new Builder();
    }

    /** Defaults follow the paper's evaluation: (r, c) = (8, 5), stagger 1, NAK at 100 ms then every 50 ms. */
    public static final class Builder extends NakSettings.Builder<Builder> {
        private int r = R.intDefault();
        private double defaultC = C.decimalDefault();
        private Map<Integer, Double> cByGroup = Map.of();
        private int stagger = STAGGER.intDefault();
        private int maxPayload = PAYLOAD.intDefault();
        private int maxFrameLength = HeaderFlyweight.STANDARD_FRAME_LENGTH;
        private int dataCacheCapacity = DATA_CACHE.intDefault();
        private int retransmitCapacity = LIBRARY_RETRANSMIT_CAPACITY;
        private int repairBufferCapacity = REPAIR_BUFFER.intDefault();
        private int streamWindow = DEFAULT_STREAM_WINDOW;
        private long sessionDelayNs = SESSION_DELAY.nanosDefault();
        // Off here, on in the daemon (STABILITY_INTERVAL, STABILITY_EVERY, SEND_WINDOW): the simulator keeps the
        // paper's traffic and does not pace its senders.
        private long stabilityIntervalNs;
        private int stabilityEvery;
        private int sendWindow;
        private boolean fountainBackup = FOUNTAIN_BACKUP.onDefault();
        private TuningSettings tuning = TuningSettings.OFF;

        private Builder() {
            super(DEFAULT_LEC_GIVE_UP_MS * MS, NakSettings.NAK_RATE_LIMIT.intDefault());
        }

        @Override
        protected Builder self() {
            return this;
        }

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
            return new RicochetConfig(r, defaultC, cByGroup, stagger, nakSettings(), maxPayload, dataCacheCapacity,
                    retransmitCapacity, repairBufferCapacity, streamWindow, sessionDelayNs, maxFrameLength,
                    stabilityIntervalNs, stabilityEvery, sendWindow, fountainBackup, tuning);
        }
    }
}
