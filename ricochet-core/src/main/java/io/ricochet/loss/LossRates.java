package io.ricochet.loss;

/** Validation of loss-rate arguments shared by the loss models and {@link LossSpec}. */
final class LossRates {

    private LossRates() {
    }

    /** Whether {@code rate} is a probability in [0, 1); false for NaN. */
    static boolean isRate(double rate) {
        return rate >= 0 && rate < 1;
    }

    /** Returns {@code rate} (with -0.0 normalised to 0.0), or throws if it is not in [0, 1). */
    static double requireRate(double rate) {
        if (!isRate(rate)) {
            throw new IllegalArgumentException("loss rate must be a number in [0, 1), got " + rate);
        }
        return rate + 0.0;
    }
}
