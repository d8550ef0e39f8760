package io.ricochet.lec.tuning;

/**
 * Sets one group's rate-of-fire c from evidence of the losses a node sees there: the least c (in steps) at which the
 * losses LEC leaves to the NAK layer stay under a target share of the data ({@link TuningSettings#targetResidual}).
 *
 * <p><b>The model.</b> A packet of the group lost at this node is carried, on average, by
 * {@code c * q} repairs this node can use, {@code q = (1 - L)^r (s - 2) / (s - 1)}: each of the other s - 2
 * receivers got it with probability 1 - L and sends c repairs of it, one in s - 1 of them to this node, and a repair
 * is usable if the r - 1 other packets in it arrived too. With those arrivals independent, LEC misses the packet with
 * probability {@code exp(-kappa c q)}, where the efficiency {@code kappa} (1 in theory) absorbs what the model
 * leaves out: combining repairs helps (kappa above 1), bursts that empty the same bins hurt (kappa well below 1).
 * Losses left to NAK per data packet are then {@code L exp(-kappa c q)}, and the least c meeting the target T is
 * <pre>    c* = ln(L / T) / (kappa q)</pre>
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
    private final int r;
    private double c;
    private long lastChangeNs;
    private TuningReason reason = TuningReason.CONFIGURED;
    private double lossRate = Double.NaN;
    private double lecShare = Double.NaN;
    private double wanted = Double.NaN;

    /**
     * @param settings the range, target and rate limit
     * @param r        rate-of-fire r (packets per repair)
     * @param initialC the configured c, clamped to the range
     * @param startNs  when tuning starts: the first change may come one hold time later
     */
    public RateOfFireController(TuningSettings settings, int r, double initialC, long startNs) {
        this.settings = settings;
        this.r = r;
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
     * Decides at {@code nowNs} on {@code evidence}, for a group of {@code groupSize} members (this node included).
     * Returns true if c changed.
     */
    boolean decide(long nowNs, Evidence.Window evidence, int groupSize) {
        if (evidence.packets() < settings.minPackets() || nowNs - lastChangeNs < settings.holdNs()) {
            return false;
        }
        lossRate = evidence.losses() / evidence.packets();
        lecShare = evidence.losses() > 0 ? evidence.lec / evidence.losses() : Double.NaN;
        double cSeen = evidence.losses() > 0 ? evidence.cSum / evidence.losses() : c;
        wanted = wantedC(lossRate, evidence.other, evidence.losses(), cSeen, groupSize);
        double step = settings.step();
        if (wanted > c + step + EPSILON && c < settings.cMax()) {
            double up = Math.ceil(wanted / step - EPSILON) * step;
            return change(Math.min(settings.cMax(), up), TuningReason.RAISED, nowNs);
        }
        boolean quiet = lossRate <= settings.targetResidual();
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
     * The least c (unrounded) leaving at most the target of losses to NAK, by the model above, given the loss rate,
     * the misses and losses seen and the c they were seen under.
     */
    double wantedC(double loss, double misses, double losses, double cSeen, int groupSize) {
        double q = reach(loss, r, groupSize);
        if (loss <= settings.targetResidual() || q <= 0) {
            return settings.cMin(); // the target is met without LEC, or LEC cannot help (a group of two)
        }
        double kappa = 1;
        if (cSeen > 0 && losses > 0) {
            // The observed efficiency, trusted in proportion to the misses behind it (the variance of a log-count
            // falls as one over the count): log kappa shrinks towards the model's 0 with priorMisses pseudo-misses.
            double observed = Math.min(1 - EPSILON, (misses + 0.5) / (losses + 1));
            double kappaSeen = Math.min(KAPPA_MAX, Math.max(KAPPA_MIN, -Math.log(observed) / (cSeen * q)));
            double weight = misses / (misses + settings.priorMisses());
            kappa = Math.exp(weight * Math.log(kappaSeen));
        }
        return Math.log(loss / settings.targetResidual()) / (kappa * q);
    }

    /** Usable repairs per unit of c that carry a given lost packet: {@code (1 - L)^r (s - 2) / (s - 1)}. */
    static double reach(double loss, int r, int groupSize) {
        if (groupSize < 3) {
            return 0;
        }
        return Math.pow(1 - loss, r) * (groupSize - 2) / (groupSize - 1);
    }
}
