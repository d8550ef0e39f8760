package io.ricochet.loss;

import java.util.SplittableRandom;

/**
 * Two-state Gilbert loss model: every packet seen in the bad state is dropped, none in the good state.
 *
 * <p>After each packet the chain steps once: from bad to good with probability {@code 1/m}, and from good to bad
 * with probability {@code p = L / (m(1 - L))}. Bad runs are then geometric with mean {@code m} and good runs
 * geometric with mean {@code 1/p}, so the stationary loss rate is {@code m / (m + 1/p) = L}. Because {@code p} is a
 * probability, a mean burst {@code m} can only reach rates {@code L <= m / (m + 1)}.
 *
 * <p>The chain starts in the good state, so the first packet is always delivered.
 */
public final class MarkovLossModel implements LossModel {

    private final double rate;
    private final double meanBurst;
    private final double enterBadProbability;
    private final double leaveBadProbability;
    private final SplittableRandom random;
    private boolean bad;

    /**
     * Creates a Gilbert loss model.
     *
     * @param rate stationary fraction in [0, 1) of packets dropped
     * @param meanBurst mean number of consecutive drops, finite and at least 1
     * @param seed seed of the model's random generator
     * @throws IllegalArgumentException if {@code rate} is not in [0, 1), {@code meanBurst} is not a finite number
     *     {@code >= 1}, or {@code rate > meanBurst / (meanBurst + 1)}
     */
    public MarkovLossModel(double rate, double meanBurst, long seed) {
        this.rate = LossRates.requireRate(rate);
        if (!isMeanBurst(meanBurst)) {
            throw new IllegalArgumentException("mean burst length must be a finite number >= 1, got " + meanBurst);
        }
        if (this.rate > maxRate(meanBurst)) {
            throw new IllegalArgumentException("loss rate " + rate + " is unreachable with mean burst length "
                    + meanBurst + ": the Gilbert model needs rate <= m/(m+1) = " + maxRate(meanBurst));
        }
        this.meanBurst = meanBurst;
        this.enterBadProbability = this.rate / (meanBurst * (1 - this.rate));
        this.leaveBadProbability = 1 / meanBurst;
        this.random = new SplittableRandom(seed);
    }

    /** Whether {@code meanBurst} is a finite number {@code >= 1}; false for NaN. */
    static boolean isMeanBurst(double meanBurst) {
        return meanBurst >= 1 && meanBurst < Double.POSITIVE_INFINITY;
    }

    /** The highest loss rate reachable with mean burst length {@code meanBurst}: {@code m / (m + 1)}. */
    static double maxRate(double meanBurst) {
        return meanBurst / (meanBurst + 1);
    }

    @Override
    public boolean shouldDrop() {
        boolean drop = bad;
        double u = random.nextDouble();
        bad = bad ? u >= leaveBadProbability : u < enterBadProbability;
        return drop;
    }

    @Override
    public String toString() {
        return "MarkovLossModel[rate=" + rate + ", meanBurst=" + meanBurst + "]";
    }
}
