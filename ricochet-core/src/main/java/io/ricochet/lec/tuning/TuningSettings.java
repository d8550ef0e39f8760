package io.ricochet.lec.tuning;

import io.ricochet.setting.Setting;

/**
 * How a node tunes its rate-of-fire: each group's c ({@link RateOfFireController}) and the node's r
 * ({@link RateOfFireTuner}). Off by default: every group then keeps the configured (r, c), exactly as without tuning.
 *
 * @param enabled        whether c is tuned at all
 * @param cMin           the lowest c a group may be given
 * @param cMax           the highest c a group may be given
 * @param step           c moves in multiples of this; going down, one step per change
 * @param targetResidual the target: losses LEC leaves to the NAK layer, per data packet received (the paper's
 *                       operating point, (8, 5) at 1 % uniform loss recovering 99 % by LEC, leaves 1e-4)
 * @param targetShare    and the share of its losses LEC must recover, in [0, 1) (0.99, the same operating point;
 *                       0 for none): at low loss the residual alone would let LEC recover much less, and each
 *                       loss it leaves waits a NAK round trip or more
 * @param rMin           the lowest r the node may use (r is the node's, shared by all its bins)
 * @param rMax           the highest; the engine lowers it to what a repair frame can carry
 *                       ({@code RicochetConfig.maxR})
 * @param lecLatencyNs   the latency target of r: the mean time from a loss's discovery to its recovery by LEC,
 *                       which grows with r (a repair goes out when r packets filled its bin); r is the largest whose
 *                       latency, measured at the r in force and scaled in proportion, stays within it
 * @param epochNs        how often evidence is aged and decisions are taken
 * @param holdNs         the least time between two changes of one group's c (rate limit)
 * @param memory         the weight the slow evidence window keeps at each epoch, in (0, 1): 0.98 remembers about
 *                       fifty epochs (a change of the loss rate restarts it, see {@code Evidence})
 * @param minPackets     the evidence (data packets received, losses included) needed before any decision; a group
 *                       with less of its own decides on the whole node's evidence
 * @param priorMisses    how many LEC misses count as much as the model: the measured efficiency is trusted in the
 *                       proportion misses / (misses + priorMisses). At the target LEC misses about 0.1 packet a
 *                       second whatever the loss rate, so a few misses more or less must not move c
 */
public record TuningSettings(boolean enabled, double cMin, double cMax, double step, double targetResidual,
                             double targetShare, int rMin, int rMax, long lecLatencyNs, long epochNs, long holdNs,
                             double memory, long minPackets, double priorMisses) {
    /** The daemon's switch (docs/design/lec.md, "Rate-of-fire that tunes itself"). */
    public static final Setting TUNING = Setting.onOff("rate-of-fire-tuning", false,
            "on: each group's c (within rate-of-fire-range) and the node's r (within rate-of-fire-r-range) are tuned "
                    + "from the losses this node sees, aiming at LEC recovering 99 in 100 of them and at most 1e-4 "
                    + "left to NAK per data packet, at the least repair traffic; off: r and c stay as r and c set them")
            .details("Members need not agree: a node's (r, c) only sets the repairs it sends, and a repair lists "
                    + "the packets it carries (docs/design/lec.md, \"Rate-of-fire that tunes itself\"; measured in "
                    + "docs/results/adaptive-lec/summary.md)");
    /** The range c is tuned in. */
    public static final Setting RANGE = Setting.text("rate-of-fire-range", "2..10",
            "with rate-of-fire-tuning on: MIN..MAX, the range c is tuned in");
    /** The range r is tuned in. */
    public static final Setting R_RANGE = Setting.text("rate-of-fire-r-range", "4..24",
            "with rate-of-fire-tuning on: MIN..MAX, the range r is tuned in (r..r pins it); the top is lowered to "
                    + "what a repair frame carries (9 authenticated at mtu 1500 with 1 024-byte payloads)");

    /** Tuning off: every group keeps its configured c. */
    public static final TuningSettings OFF = new TuningSettings(false, 2, 10, 0.5, 1e-4, 0.99, 4, 24, 10_000_000L,
            1_000_000_000L, 2_000_000_000L, 0.98, 2_000, 20);

    public TuningSettings {
        require(cMin >= 0 && cMin <= cMax && cMax <= 64, "c range", cMin + ".." + cMax,
                "must be 0 <= min <= max <= 64");
        require(step > 0 && step <= cMax - cMin + 1, "c step", step, "must be positive and at most the range + 1");
        require(targetResidual > 0 && targetResidual < 1, "target residual", targetResidual, "must be in (0, 1)");
        require(targetShare >= 0 && targetShare < 1, "target LEC share", targetShare, "must be in [0, 1)");
        require(rMin >= 1 && rMin <= rMax, "r range", rMin + ".." + rMax, "must be 1 <= min <= max");
        require(lecLatencyNs > 0, "LEC latency target", lecLatencyNs, "must be positive");
        require(epochNs > 0, "epoch", epochNs, "must be positive");
        require(holdNs >= epochNs, "hold", holdNs, "must be at least one epoch");
        require(memory > 0 && memory < 1, "memory", memory, "must be in (0, 1)");
        require(minPackets >= 1, "min packets", minPackets, "must be at least 1");
        require(priorMisses >= 0, "prior misses", priorMisses, "must be 0 or more");
    }

    /** The defaults, on. */
    public static TuningSettings on() {
        return OFF.withEnabled(true);
    }

    public TuningSettings withEnabled(boolean on) {
        return new TuningSettings(on, cMin, cMax, step, targetResidual, targetShare, rMin, rMax, lecLatencyNs, epochNs,
                holdNs, memory, minPackets, priorMisses);
    }

    /** These settings with c tuned within {@code min..max}. */
    public TuningSettings withRange(double min, double max) {
        return new TuningSettings(enabled, min, max, step, targetResidual, targetShare, rMin, rMax, lecLatencyNs,
                epochNs, holdNs, memory, minPackets, priorMisses);
    }

    /** These settings with r tuned within {@code min..max} ({@code r..r} pins it). */
    public TuningSettings withRRange(int min, int max) {
        return new TuningSettings(enabled, cMin, cMax, step, targetResidual, targetShare, min, max, lecLatencyNs,
                epochNs, holdNs, memory, minPackets, priorMisses);
    }

    /** These settings aiming at {@code residual} losses left to NAK per data packet. */
    public TuningSettings withTarget(double residual) {
        return new TuningSettings(enabled, cMin, cMax, step, residual, targetShare, rMin, rMax, lecLatencyNs, epochNs,
                holdNs, memory, minPackets, priorMisses);
    }

    /** These settings aiming at LEC recovering at least {@code share} of the losses (0: the residual alone). */
    public TuningSettings withShare(double share) {
        return new TuningSettings(enabled, cMin, cMax, step, targetResidual, share, rMin, rMax, lecLatencyNs, epochNs,
                holdNs, memory, minPackets, priorMisses);
    }

    /** These settings letting LEC's recoveries take {@code ns} on average from discovery (what bounds r). */
    public TuningSettings withLecLatency(long ns) {
        return new TuningSettings(enabled, cMin, cMax, step, targetResidual, targetShare, rMin, rMax, ns, epochNs,
                holdNs, memory, minPackets, priorMisses);
    }

    /**
     * These settings with r tuned within the range {@code text} gives, {@code MIN..MAX} (e.g. {@code 4..24}).
     *
     * @throws IllegalArgumentException saying which form is accepted
     */
    public TuningSettings withRRange(String text) {
        String v = text.strip();
        int dots = v.indexOf("..");
        if (dots > 0 && v.indexOf("..", dots + 2) < 0) {
            try {
                int min = Integer.parseInt(v.substring(0, dots));
                int max = Integer.parseInt(v.substring(dots + 2));
                if (min >= 1 && min <= max) {
                    return withRRange(min, max);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("must be MIN..MAX, whole numbers with 1 <= MIN <= MAX (the range r is "
                + "tuned in, e.g. 4..24; 8..8 pins r at 8)");
    }

    /**
     * The setting's text form: {@code off} (c pinned as configured), {@code on} (tuned within the default range) or
     * {@code MIN..MAX} (tuned within that range), e.g. {@code 2..10}.
     *
     * @throws IllegalArgumentException saying which forms are accepted
     */
    public static TuningSettings parse(String text) {
        String v = text.strip();
        if (v.equals("off")) {
            return OFF;
        }
        if (v.equals("on")) {
            return on();
        }
        int dots = v.indexOf("..");
        if (dots > 0 && v.indexOf("..", dots + 2) < 0) {
            try {
                double min = Double.parseDouble(v.substring(0, dots));
                return on().withRange(min, Double.parseDouble(v.substring(dots + 2)));
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("must be off, on or MIN..MAX (the range c is tuned in, e.g. 2..10)");
    }

    /** The text form {@link #parse} reads back: {@code off}, or {@code MIN..MAX}. */
    @Override
    public String toString() {
        return enabled ? cMin + ".." + cMax : "off";
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("tuning " + key + " = " + value + ": " + rule);
        }
    }
}
