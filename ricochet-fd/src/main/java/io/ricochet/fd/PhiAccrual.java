package io.ricochet.fd;

/**
 * The phi-accrual suspicion level (Hayashibara et al., "The phi accrual failure detector", SRDS 2004): how
 * unlikely it is, on a scale of powers of ten, that a member still alive would have stayed silent this long.
 *
 * <p>{@code phi(t) = -log10(P(X > t))}, where {@code t} is the time since the member's last heartbeat and {@code X}
 * its inter-arrival time, taken as normal with the history's mean plus the acceptable pause, and the history's
 * standard deviation floored at the configured minimum. phi 1 means a 10% chance that the silence is normal, phi 8 a
 * chance of 10^-8.
 *
 * <p>The normal tail is approximated by a logistic curve, {@code P(X > t) ~= 1 / (1 + e^z)} with
 * {@code z = y (1.5976 + 0.070566 y^2)} and {@code y = (t - mean) / stdDev} (Bowling et al., "A logistic
 * approximation to the cumulative normal distribution", 2009: error below 1.4e-4 over the whole line). Then
 * {@code phi = log10(1 + e^z)}, computed without overflow for any {@code z}, so phi is finite and grows linearly
 * in {@code z} however long the silence. Pure arithmetic: the same inputs give the same phi on every JVM.
 */
final class PhiAccrual {
    private static final double LN_10 = Math.log(10);

    private PhiAccrual() {
    }

    /**
     * The suspicion level of a member silent for {@code elapsedNs} since its last heartbeat.
     *
     * @param elapsedNs time since the last heartbeat arrived, {@code >= 0}
     * @param history the member's inter-arrival intervals
     * @param parameters acceptable pause and standard deviation floor
     * @return phi, {@code >= 0}
     */
    static double phi(long elapsedNs, HeartbeatHistory history, PhiParameters parameters) {
        double mean = history.meanNs() + parameters.acceptablePauseNs();
        double stdDev = Math.max(history.stdDevNs(), parameters.minStdDevNs());
        return phi((elapsedNs - mean) / stdDev);
    }

    /** phi for a silence {@code y} standard deviations past the mean. */
    static double phi(double y) {
        double z = y * (1.5976 + 0.070566 * y * y);
        // log(1 + e^z) = max(z, 0) + log1p(e^-|z|): e^-|z| is at most 1, so nothing overflows.
        return (Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)))) / LN_10;
    }
}
