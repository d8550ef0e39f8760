package io.ricochet.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LatencyStatsTest {
    @Test
    void adjacentBinsNeverShareARecordingAndAddUpToTheTotal() {
        LatencyStats stats = new LatencyStats();
        // Values on and next to 10 ms bin edges, where HdrHistogram's buckets (3 significant digits) straddle them.
        long[] micros = {0, 9_999, 10_000, 10_001, 149_950, 150_000, 150_049, 150_100, 299_999, 300_000, 2_000_000};
        for (long us : micros) {
            stats.recordNs(us * 1000);
        }
        long sum = 0;
        for (int bin = 0; bin < 30; bin++) {
            sum += stats.countBetweenMs(bin * 10, bin * 10 + 10);
        }
        sum += stats.countBetweenMs(300, 1e9);
        assertEquals(micros.length, sum);
        assertEquals(micros.length, stats.count());
    }

    @Test
    void rangesCountWhatLiesInside() {
        LatencyStats stats = new LatencyStats();
        stats.recordNs(5_000_000);   // 5 ms
        stats.recordNs(15_000_000);  // 15 ms
        stats.recordNs(15_500_000);  // 15.5 ms
        assertEquals(1, stats.countBetweenMs(0, 10));
        assertEquals(2, stats.countBetweenMs(10, 20));
        assertEquals(0, stats.countBetweenMs(20, 30));
        assertEquals(0, stats.countBetweenMs(20, 10));
    }
}
