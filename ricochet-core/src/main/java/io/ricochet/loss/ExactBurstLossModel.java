package io.ricochet.loss;

import java.util.SplittableRandom;

/**
 * Bursty loss in which every burst drops exactly {@code burst} consecutive packets (the paper's "bursty" model,
 * section 5: "each burst is of exactly b packets and the loss rate is maintained at L").
 *
 * <p>The packet after a burst is always delivered, so bursts never abut and every observed run of drops is exactly
 * {@code b} long. From then on each packet starts a new burst (and is its first dropped packet) with probability
 * <pre>    q = L / (b(1 - L))</pre>
 * Justification: a cycle is {@code b} drops followed by a good run of 1 + a geometric number on {0, 1, ...} of mean
 * {@code (1 - q) / q}, i.e. a good run of mean {@code 1 / q}; the long-run loss rate {@code b / (b + 1 / q)} equals
 * {@code L} exactly for the {@code q} above. It needs {@code q <= 1}, i.e. {@code L <= b / (b + 1)}.
 */
public final class ExactBurstLossModel implements LossModel {

    private final double rate;
    private final int burst;
    private final double startProbability;
    private final SplittableRandom random;
    private int remaining;
    private boolean gap;

    /**
     * Creates an exact-burst loss model.
     *
     * @param rate long-run fraction in [0, 1) of packets dropped
     * @param burst number of consecutive packets every burst drops, at least 1
     * @param seed seed of the model's random generator
     * @throws IllegalArgumentException if {@code rate} is not in [0, 1) or {@code burst} is less than 1
     */
    public ExactBurstLossModel(double rate, int burst, long seed) {
        this.rate = LossRates.requireRate(rate);
        if (burst < 1) {
            throw new IllegalArgumentException("burst length must be an integer >= 1, got " + burst);
        }
        if (this.rate > maxRate(burst)) {
            throw new IllegalArgumentException("loss rate " + rate + " is too high for bursts of " + burst
                    + ": exact bursts need L <= b/(b+1) = " + maxRate(burst));
        }
        this.burst = burst;
        this.startProbability = burstStartProbability(this.rate, burst);
        this.random = new SplittableRandom(seed);
    }

    /** The probability {@code q} that a packet eligible to start a burst starts one. */
    static double burstStartProbability(double rate, int burst) {
        return rate == 0 ? 0 : rate / (burst * (1 - rate));
    }

    /** Highest loss rate exact, separated bursts of {@code burst} packets can give: b / (b + 1). */
    static double maxRate(int burst) {
        return burst / (burst + 1.0);
    }

    @Override
    public boolean shouldDrop() {
        if (remaining > 0) {
            remaining--;
            gap = remaining == 0;
            return true;
        }
        if (gap) {
            gap = false;
            return false;
        }
        if (random.nextDouble() < startProbability) {
            remaining = burst - 1;
            gap = remaining == 0;
            return true;
        }
        return false;
    }

    @Override
    public String toString() {
        return "ExactBurstLossModel[rate=" + rate + ", burst=" + burst + "]";
    }
}
