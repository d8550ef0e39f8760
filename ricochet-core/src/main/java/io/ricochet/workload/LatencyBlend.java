package io.ricochet.workload;

import io.ricochet.sim.LatencyStats;
import java.util.Map;

/**
 * Latency summaries of several daemons combined. When every daemon sent its histogram, the nodes' recordings are
 * merged and every figure is exact ({@link #exact()}). Otherwise only the summaries are combined: the count and
 * mean are exact, p50 is the count-weighted mean of the nodes' medians (an estimate), p99 and max are the worst
 * node's.
 *
 * @param count recordings over all nodes
 * @param mean  exact mean, ms
 * @param p50   the median over all recordings when exact, else the count-weighted mean of the nodes' p50, ms
 * @param p99   the 99th percentile over all recordings when exact, else the largest p99 of any node, ms
 * @param max   the largest value, ms
 * @param exact whether the figures come from the merged histograms
 */
public record LatencyBlend(long count, double mean, double p50, double p99, double max, boolean exact) {
    /** Nothing recorded. */
    public static final LatencyBlend EMPTY = new LatencyBlend(0, 0, 0, 0, 0, false);

    /** The summary of merged histograms: every figure exact. */
    public static LatencyBlend exact(LatencyStats.Summary s) {
        return new LatencyBlend(s.count(), s.mean(), s.p50(), s.p99(), s.max(), true);
    }

    /** Adds one node's summary (a map with count, mean, p50, p99, max as {@code ricochet stats} prints it). */
    public LatencyBlend add(Map<?, ?> summary) {
        long n = number(summary, "count").longValue();
        if (n <= 0) {
            return this;
        }
        long total = count + n;
        return new LatencyBlend(total, round((mean * count + number(summary, "mean").doubleValue() * n) / total),
                round((p50 * count + number(summary, "p50").doubleValue() * n) / total),
                Math.max(p99, number(summary, "p99").doubleValue()),
                Math.max(max, number(summary, "max").doubleValue()), false);
    }

    private static Number number(Map<?, ?> summary, String key) {
        return summary.get(key) instanceof Number n ? n : 0;
    }

    private static double round(double ms) {
        return Math.round(ms * 1000.0) / 1000.0;
    }
}
