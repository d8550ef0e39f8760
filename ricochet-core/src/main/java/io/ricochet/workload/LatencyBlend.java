package io.ricochet.workload;

import io.ricochet.latency.LatencyStats;

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

    /** Adds one node's summary. */
    public LatencyBlend add(LatencyStats.Summary summary) {
        long n = summary.count();
        if (n <= 0) {
            return this;
        }
        long total = count + n;
        return new LatencyBlend(total, round((mean * count + summary.mean() * n) / total),
                round((p50 * count + summary.p50() * n) / total), Math.max(p99, summary.p99()),
                Math.max(max, summary.max()), false);
    }

    private static double round(double ms) {
        return Math.round(ms * 1000.0) / 1000.0;
    }
}
