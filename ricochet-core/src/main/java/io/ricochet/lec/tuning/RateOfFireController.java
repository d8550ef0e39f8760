package io.ricochet.lec.tuning;

/**
 * Sets one group's rate-of-fire c from evidence of the losses a node sees there: the least c (in steps) at which the
 * losses LEC leaves to the NAK layer stay under a target share of the data ({@link TuningSettings#targetResidual})
 * and LEC recovers at least a target share of the losses ({@link TuningSettings#targetShare}), at the node's r.
 *
 * <p><b>The model.</b> A packet of the group lost at this node is carried, on average, by
 * {@code c * q} repairs this node can use, {@code q = (1 - L)^r (s - 2) / (s - 1)}: each of the other s - 2
 * receivers got it with probability 1 - L and sends c repairs of it, one in s - 1 of them to this node, and a repair
 * is usable if the r - 1 other packets in it arrived too. With those arrivals independent, LEC misses the packet with
 * probability {@code exp(-kappa c q)}, where the efficiency {@code kappa} (1 in theory) absorbs what the model
 * leaves out: combining repairs helps (kappa above 1), bursts that empty the same bins hurt (kappa well below 1).
 * Losses left to NAK per data packet are then {@code L exp(-kappa c q)}, and the least c meeting the target T, with
 * LEC recovering at least a share S, is
 * <pre>    c* = ln(max(L / T, 1 / (1 - S))) / (kappa q)</pre>
 *
 * <p><b>The estimates.</b> L is the evidence's losses over its packets. kappa is measured: the observed miss share,
 * solved for kappa at the c the misses were seen under, its logarithm shrunk towards the model's (kappa = 1) with
 * {@link TuningSettings#priorMisses} pseudo-misses: a handful of misses (all there is when the target is met) barely
 * moves it, hundreds (under bursts) set it. Because kappa is measured at the c in force and c* divides by it, c*
 * does not depend on the c in force when the model's form holds: the loop has no gain to oscillate with. Where the
 * form fails (misses that do not fall as c rises, as under long bursts), kappa falls as c rises, so c* only rises,
 * to the top of the range.
 *
 * <p><b>The decision</b>, at most once per {@link TuningSettings#holdNs}, within the range. c* more than a step
 * above c: c jumps to c* rounded up to a step, at once (a loss rate that rose is met in one change). c* more than
 * two steps below c (or no more loss than the target): c goes half way down to c*, at least one step (a quiet
 * network is approached in a few hold times, from 10 to 2.5 in five).
 * Otherwise c holds. This dead band, three steps wide, is several times the estimate's noise on the slow evidence
 * window ({@link Evidence}; at 0.1 % loss c* varies by about half a step), so a steady loss settles c and leaves it
 * there. The price: c may settle up to a step below c*, leaving up to {@code exp(step q)} (about 1.6) times the
 * target to NAK.
 */
public final class RateOfFireController {
    private static final double KAPPA_MIN = 0.02;
    private static final double KAPPA_MAX = 4;
    private static final double EPSILON = 1e-9;

    private final TuningSettings settings;
    private double c;
    private long lastChangeNs;
    private TuningReason reason = TuningReason.CONFIGURED;
    private double lossRate = Double.NaN;
    private double lecShare = Double.NaN;
    private double wanted = Double.NaN;

    /**
     * @param settings the range, target and rate limit
     * @param initialC the configured c, clamped to the range
     * @param startNs  when tuning starts: the first change may come one hold time later
     */
    public RateOfFireController(TuningSettings settings, double initialC, long startNs) {
        this.settings = settings;
        this.c = Math.min(settings.cMax(), Math.max(settings.cMin(), initialC));
        this.lastChangeNs = startNs;
    }

    /** The c in force. */
    public double c() {
        return c;
    }

    public TuningReason reason() {
        return reason;
    }

    /** The loss rate of the last evidence decided on (NaN before the first decision). */
    public double lossRate() {
        return lossRate;
    }

    /** The share of its losses LEC recovered in the last evidence decided on (NaN before). */
    public double lecShare() {
        return lecShare;
    }

    /** The c the last decision aimed at, before the rate limit and the dead band (NaN before). */
    public double wanted() {
        return wanted;
    }

    /**
     * Decides at {@code nowNs} on {@code evidence}, for a group of {@code groupSize} members (this node included), at
     * the node's rate-of-fire r. Returns true if c changed.
     */
    boolean decide(long nowNs, Evidence.Window evidence, int groupSize, int r) {
        if (evidence.packets() < settings.minPackets() || nowNs - lastChangeNs < settings.holdNs()) {
            return false;
        }
        lossRate = evidence.losses() / evidence.packets();
        lecShare = evidence.losses() > 0 ? evidence.lec / evidence.losses() : Double.NaN;
        wanted = wantedC(evidence, groupSize, r, settings);
        double step = settings.step();
        if (wanted > c + step + EPSILON && c < settings.cMax()) {
            double up = Math.ceil(wanted / step - EPSILON) * step;
            return change(Math.min(settings.cMax(), up), TuningReason.RAISED, nowNs);
        }
        boolean quiet = need(lossRate, settings) <= 1;
        if ((wanted < c - 2 * step - EPSILON || quiet) && c > settings.cMin()) {
            // Half way down to c* (rounded up to a step), at least one step: never below what c* asks.
            double halfWay = Math.ceil((c + Math.max(wanted, settings.cMin())) / 2 / step - EPSILON) * step;
            return change(Math.max(settings.cMin(), Math.min(c - step, halfWay)), TuningReason.LOWERED, nowNs);
        }
        reason = TuningReason.HELD;
        return false;
    }

    private boolean change(double next, TuningReason why, long nowNs) {
        c = next;
        reason = why;
        lastChangeNs = nowNs;
        return true;
    }

    /**
     * Rescales c after the node's r changed from {@code oldR} to {@code newR}, so that a lost packet keeps the usable
     * repairs it had ({@code c q} unchanged; at low loss c barely moves and the repairs per packet fall as 1 / r);
     * rounded up to a step, within the range. Not a decision: it does not restart the hold time.
     */
    void rescale(int oldR, int newR, double lossRate, int groupSize) {
        double before = reach(lossRate, oldR, groupSize);
        double after = reach(lossRate, newR, groupSize);
        if (before > 0 && after > 0) {
            double scaled = Math.ceil(c * before / after / settings.step() - EPSILON) * settings.step();
            c = Math.min(settings.cMax(), Math.max(settings.cMin(), scaled));
        }
    }

    /**
     * What the target asks of LEC at loss rate {@code loss}: {@code max(L / T, 1 / (1 - S))}, the factor by which it
     * must cut the losses it leaves to NAK (1 or less: nothing, the target is met without LEC).
     */
    static double need(double loss, TuningSettings settings) {
        if (loss <= 0) {
            return 0;
        }
        return Math.max(loss / settings.targetResidual(), 1 / (1 - settings.targetShare()));
    }

    /**
     * The least c (unrounded) meeting the target at rate-of-fire r, by the model above, given the evidence: its loss
     * rate, and the misses and losses it saw and the (r, c) they were seen under.
     */
    static double wantedC(Evidence.Window evidence, int groupSize, int r, TuningSettings settings) {
        double loss = evidence.packets() > 0 ? evidence.losses() / evidence.packets() : 0;
        double q = reach(loss, r, groupSize);
        double need = need(loss, settings);
        if (need <= 1 || q <= 0) {
            return settings.cMin(); // the target is met without LEC, or LEC cannot help (a group of two)
        }
        return Math.log(need) / (kappa(evidence, loss, groupSize, settings) * q);
    }

    /**
     * The efficiency kappa: the observed miss share solved for it at the (r, c) the misses were seen under, trusted
     * in proportion to the misses behind it (the variance of a log-count falls as one over the count): log kappa
     * shrinks towards the model's 0 with {@link TuningSettings#priorMisses} pseudo-misses.
     */
    static double kappa(Evidence.Window evidence, double loss, int groupSize, TuningSettings settings) {
        double losses = evidence.losses();
        if (losses <= 0) {
            return 1;
        }
        double cSeen = evidence.cSum / losses;
        double qSeen = reach(loss, evidence.rSum / losses, groupSize);
        if (cSeen <= 0 || qSeen <= 0) {
            return 1;
        }
        double misses = evidence.other;
        double observed = Math.min(1 - EPSILON, (misses + 0.5) / (losses + 1));
        double kappaSeen = Math.min(KAPPA_MAX, Math.max(KAPPA_MIN, -Math.log(observed) / (cSeen * qSeen)));
        double weight = misses / (misses + settings.priorMisses());
        return Math.exp(weight * Math.log(kappaSeen));
    }

    /** Usable repairs per unit of c that carry a given lost packet: {@code (1 - L)^r (s - 2) / (s - 1)}. */
    static double reach(double loss, double r, int groupSize) {
        if (groupSize < 3) {
            return 0;
        }
        return Math.pow(1 - loss, r) * (groupSize - 2) / (groupSize - 1);
    }
}
