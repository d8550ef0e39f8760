package io.ricochet.bench.overload;

import java.util.List;

/**
 * A running total read now and then (e.g. a generator's packets sent, noted every 0.1 s), as a function of time:
 * linear between readings, 0 before the first and the last value after the last. Readings must come in time order.
 * Immutable.
 */
final class CumulativeSeries {
    private final long[] times;
    private final long[] values;

    /** @param readings [epoch ms, total] pairs in time order */
    CumulativeSeries(List<long[]> readings) {
        times = new long[readings.size()];
        values = new long[readings.size()];
        for (int i = 0; i < readings.size(); i++) {
            long[] r = readings.get(i);
            if (r.length != 2) {
                throw new IllegalArgumentException("reading " + i + " is not an [epoch ms, total] pair");
            }
            if (i > 0 && r[0] < times[i - 1]) {
                throw new IllegalArgumentException("reading " + i + " goes back in time");
            }
            times[i] = r[0];
            values[i] = r[1];
        }
    }

    /** The total at {@code epochMillis}. */
    double at(double epochMillis) {
        int n = times.length;
        if (n == 0 || epochMillis < times[0]) {
            return 0;
        }
        if (epochMillis >= times[n - 1]) {
            return values[n - 1];
        }
        int lo = 0;
        int hi = n - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] <= epochMillis) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        long span = times[hi] - times[lo];
        return span == 0 ? values[hi] : values[lo] + (values[hi] - values[lo]) * (epochMillis - times[lo]) / span;
    }
}
