package io.ricochet.bench.experiment;

import java.util.List;

/**
 * Mean and sample standard deviation of one metric over a point's runs (one per seed; the paper averages five
 * runs per point). Runs whose value is NaN (no recovery of that kind) are left out; {@code n} counts the rest.
 */
public record Stat(double mean, double sd, int n) {

    public static Stat of(List<Double> values) {
        double sum = 0;
        int n = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        if (n == 0) {
            return new Stat(Double.NaN, Double.NaN, 0);
        }
        double mean = sum / n;
        double squares = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                squares += (v - mean) * (v - mean);
            }
        }
        return new Stat(mean, n > 1 ? Math.sqrt(squares / (n - 1)) : 0, n);
    }

    /** {@code mean ± sd} with {@code digits} decimals (just the mean for a single run). */
    public String format(int digits) {
        if (n == 0) {
            return "–";
        }
        return n == 1 ? Numbers.fixed(mean, digits) : Numbers.fixed(mean, digits) + " ± " + Numbers.fixed(sd, digits);
    }
}
