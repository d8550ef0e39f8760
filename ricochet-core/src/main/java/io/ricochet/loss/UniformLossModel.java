package io.ricochet.loss;

import java.util.SplittableRandom;

/**
 * Independent (Bernoulli) loss: each packet is dropped with probability {@code rate}, independently of all others.
 *
 * <p>Loss runs are geometric, so the mean number of consecutive drops is {@code 1 / (1 - rate)}.
 */
public final class UniformLossModel implements LossModel {

    private final double rate;
    private final SplittableRandom random;

    /**
     * Creates a uniform loss model.
     *
     * @param rate probability in [0, 1) that a packet is dropped
     * @param seed seed of the model's random generator
     * @throws IllegalArgumentException if {@code rate} is not in [0, 1)
     */
    public UniformLossModel(double rate, long seed) {
        this.rate = LossRates.requireRate(rate);
        this.random = new SplittableRandom(seed);
    }

    @Override
    public boolean shouldDrop() {
        return random.nextDouble() < rate;
    }

    @Override
    public String toString() {
        return "UniformLossModel[rate=" + rate + "]";
    }
}
