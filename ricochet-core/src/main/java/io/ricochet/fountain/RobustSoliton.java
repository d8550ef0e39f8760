package io.ricochet.fountain;

/**
 * The robust soliton distribution of LT codes (Luby, "LT codes", FOCS 2002, section 5), from which each encoding
 * symbol draws its degree: the number of source symbols XOR-ed into it. It is the ideal soliton distribution
 * (rho(1) = 1/k, rho(i) = 1/(i(i-1))) plus tau, which adds low degrees so that the decoder's ripple of degree-one
 * symbols seldom runs dry, and a spike at k/R so that every source symbol is covered:
 * R = c ln(k/delta) sqrt(k), tau(i) = R/(ik) below k/R, tau(k/R) = R ln(R/delta)/k. With probability at least
 * 1 - delta a decoder recovers the k source symbols from k * beta encoding symbols ({@link #beta()}); c trades the
 * mean overhead against its spread.
 *
 * <p>Immutable; the cumulative table takes k + 1 doubles.
 */
public final class RobustSoliton {
    private final int k;
    private final double c;
    private final double delta;
    private final double beta;
    /** cdf[i] = P(degree <= i), cdf[0] = 0, cdf[k] = 1. */
    private final double[] cdf;

    /**
     * @param k     source symbols, at least 1
     * @param c     the distribution's constant, greater than 0 (Luby's analysis; 0.01 .. 0.2 in practice)
     * @param delta the bound on the failure probability at k * beta symbols, in (0, 1)
     */
    public RobustSoliton(int k, double c, double delta) {
        if (k < 1) {
            throw new IllegalArgumentException("k = " + k + ": an LT code needs at least one source symbol");
        }
        if (!(c > 0) || !(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("c = " + c + ", delta = " + delta + ": need c > 0 and 0 < delta < 1");
        }
        this.k = k;
        this.c = c;
        this.delta = delta;
        double[] mass = new double[k + 1];
        mass[1] = 1.0 / k;
        for (int i = 2; i <= k; i++) {
            mass[i] = 1.0 / ((double) i * (i - 1));
        }
        double r = c * Math.log(k / delta) * Math.sqrt(k);
        int spike = (int) Math.floor(k / r);
        if (r > 0 && spike >= 1 && spike <= k) {
            for (int i = 1; i < spike; i++) {
                mass[i] += r / ((double) i * k);
            }
            mass[spike] += r * Math.log(r / delta) / k;
        }
        double sum = 0;
        for (int i = 1; i <= k; i++) {
            sum += mass[i];
        }
        this.beta = sum;
        this.cdf = new double[k + 1];
        double running = 0;
        for (int i = 1; i <= k; i++) {
            running += mass[i] / sum;
            cdf[i] = running;
        }
        cdf[k] = 1.0;
    }

    public int k() {
        return k;
    }

    public double c() {
        return c;
    }

    public double delta() {
        return delta;
    }

    /** The normalising sum: k * beta symbols decode with probability at least 1 - delta (Luby's theorem 17). */
    public double beta() {
        return beta;
    }

    /** P(degree = d), for 1 <= d <= k. */
    public double probability(int d) {
        return cdf[d] - cdf[d - 1];
    }

    /** The mean degree. */
    public double meanDegree() {
        double mean = 0;
        for (int d = 1; d <= k; d++) {
            mean += d * probability(d);
        }
        return mean;
    }

    /** The degree whose cumulative interval holds {@code u}, a uniform draw in [0, 1): 1 .. k. */
    public int degree(double u) {
        int lo = 1;
        int hi = k;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
