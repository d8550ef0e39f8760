package io.ricochet.fd;

/**
 * How suspicious a silence must be before {@link FailureDetector} declares a member failed (see
 * {@code docs/design/failure-detection.md}, part 3). Validated: the command line checks ranges first, with its own
 * messages; this is the last line of defence for every other caller.
 *
 * @param threshold phi at or above which a member is failed: {@code 8} means the detector accepts a false verdict
 *     with probability about {@code 10^-8} per evaluation, under the fitted distribution
 * @param acceptablePauseNs added to the mean inter-arrival time: a silence this much longer than usual is still
 *     normal (a GC pause, a burst of load on the watched host)
 * @param minStdDevNs floor of the standard deviation, so that a very regular history does not make a small delay
 *     look like a failure
 */
public record PhiParameters(double threshold, long acceptablePauseNs, long minStdDevNs) {

    /** The command's defaults: threshold 8, acceptable pause 1 s, minimum standard deviation 100 ms. */
    public static final PhiParameters DEFAULTS = new PhiParameters(8.0, 2_000_000_000L, 100_000_000L);

    public PhiParameters {
        // The negated comparison also refuses NaN.
        if (!(threshold > 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("phi threshold must be a positive finite number: " + threshold);
        }
        if (acceptablePauseNs < 0) {
            throw new IllegalArgumentException("acceptable pause must not be negative: " + acceptablePauseNs + " ns");
        }
        if (minStdDevNs <= 0) {
            throw new IllegalArgumentException("minimum standard deviation must be positive: " + minStdDevNs + " ns");
        }
    }
}
