package io.ricochet.bench.overload;

import io.ricochet.bench.load.PromiseTally;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The verdict on one overload run (issue 12, point 6). After the load falls, an interval is clean when the sink was
 * handed at least {@code 1 - tolerance} of what the generators offered in it. Delivery is clean again from the
 * first interval of the after phase's last run of clean intervals: the run must reach the phase's end ("and stays
 * there"). The time to clean delivery is that interval's start, in seconds after the fall (to within one sampling
 * interval, and the generators' start skew); the daemon did not collapse if it is at most {@code cleanWithin}.
 * The promise holds if no packet was delivered twice, both delivered and reported lost, or neither.
 *
 * @param afterBins          full intervals in the after phase
 * @param cleanAfterBins     of those, clean
 * @param timeToClean        seconds from the fall to clean delivery; NaN if the last interval is not clean
 * @param cleanWithin        the limit on {@code timeToClean}
 * @param tolerance          the shortfall of delivered against offered an interval may have and still be clean
 * @param collapsed          true if delivery was not clean again within {@code cleanWithin}
 * @param enoughData         false if the after phase has fewer than {@link #MIN_AFTER_BINS} full intervals (then
 *                           the run proves nothing either way)
 * @param promise            the sink's promise check, or null if it did not run
 * @param promiseKept        whether the promise check ran and found neither == 0, both == 0, duplicates == 0
 * @param overloadOffered    mean offered packets/s over the overload phase's full intervals
 * @param overloadDelivered  mean delivered packets/s over them
 * @param afterOffered       mean offered packets/s over the after phase's full intervals
 * @param afterDelivered     mean delivered packets/s over them
 * @param passed             no collapse, enough data, promise kept
 */
public record Verdict(int afterBins, int cleanAfterBins, double timeToClean, double cleanWithin, double tolerance,
                      boolean collapsed, boolean enoughData, PromiseTally promise, boolean promiseKept,
                      double overloadOffered, double overloadDelivered, double afterOffered, double afterDelivered,
                      boolean passed) {

    /** Fewer full intervals than this after the fall prove nothing. */
    public static final int MIN_AFTER_BINS = 3;

    /** Judges {@code timeline}, with the sink's promise check {@code promise} (null if none). */
    public static Verdict of(Timeline timeline, PromiseTally promise, double tolerance, double cleanWithin) {
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw new IllegalArgumentException("tolerance " + tolerance + ": must be in [0, 1)");
        }
        if (!(cleanWithin >= 0) || Double.isInfinite(cleanWithin)) {
            throw new IllegalArgumentException("clean-within " + cleanWithin + ": must be 0 or more seconds");
        }
        List<TimelineBin> after = phase(timeline, "after");
        int clean = 0;
        int firstOfLastRun = -1;
        for (int i = 0; i < after.size(); i++) {
            if (isClean(after.get(i), tolerance)) {
                clean++;
                if (firstOfLastRun < 0) {
                    firstOfLastRun = i;
                }
            } else {
                firstOfLastRun = -1;
            }
        }
        double timeToClean = firstOfLastRun < 0 ? Double.NaN : after.get(firstOfLastRun).t();
        boolean collapsed = Double.isNaN(timeToClean) || timeToClean > cleanWithin;
        boolean enough = after.size() >= MIN_AFTER_BINS;
        boolean kept = promise != null && promise.kept();
        List<TimelineBin> overload = phase(timeline, "overload");
        return new Verdict(after.size(), clean, timeToClean, cleanWithin, tolerance, collapsed, enough, promise,
                kept, mean(overload, TimelineBin::offered), mean(overload, TimelineBin::delivered),
                mean(after, TimelineBin::offered), mean(after, TimelineBin::delivered), !collapsed && enough && kept);
    }

    /** Whether the sink was handed at least (1 - tolerance) of what was offered in {@code bin}. */
    static boolean isClean(TimelineBin bin, double tolerance) {
        return bin.offered() > 0 && bin.delivered() >= (1 - tolerance) * bin.offered();
    }

    private static List<TimelineBin> phase(Timeline timeline, String name) {
        return timeline.bins().stream().filter(b -> b.phase().equals(name)).toList();
    }

    private static double mean(List<TimelineBin> bins, ToDoubleFunction<TimelineBin> f) {
        double seconds = bins.stream().mapToDouble(TimelineBin::seconds).sum();
        return seconds == 0 ? Double.NaN : bins.stream().mapToDouble(b -> f.applyAsDouble(b) * b.seconds()).sum()
                / seconds;
    }
}
