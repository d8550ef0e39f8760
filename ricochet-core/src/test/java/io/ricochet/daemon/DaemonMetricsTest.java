package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.ricochet.api.NodeStats;
import io.ricochet.latency.LatencyStats;
import io.ricochet.lec.tuning.GroupTuning;
import io.ricochet.lec.tuning.TuningReason;
import io.ricochet.metrics.Readings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The daemon's recovery latencies as Prometheus buckets: every recording in exactly one bucket, sum in seconds. */
class DaemonMetricsTest {
    private static final long US = 1_000L;

    @Test
    void shouldPutEachRecoveryInTheBucketOfItsLatency() {
        LatencyStats stats = new LatencyStats();
        stats.recordNs(300 * US);      // 0.3 ms: le 0.0005
        stats.recordNs(1_500 * US);    // 1.5 ms: le 0.002
        stats.recordNs(80_000 * US);   // 80 ms: le 0.1
        stats.recordNs(30_000_000 * US); // 30 s: +Inf

        Readings.Buckets buckets = DaemonMetrics.buckets(stats);

        long[] expected = new long[DaemonMetrics.LATENCY_BOUNDS_SECONDS.length];
        expected[0] = 1;
        expected[2] = 1;
        expected[7] = 1;
        expected[expected.length - 1] = 1;
        assertArrayEquals(expected, buckets.counts());
        assertEquals(30.0818, buckets.sum(), 0.01);
    }

    @Test
    void shouldShowEachGroupsTunedRateOfFireAsAGaugeOnlyWhenTuned() {
        NodeStats stats = new NodeStats(4, 1, "ricochet", "epoll", "HMAC", 0,
                Map.of(), 0, null, Map.of(), List.of(7), Map.of(), null, null);
        DaemonMetrics.Reading tuned = new DaemonMetrics.Reading(stats, 0, Map.of(), List.of(new GroupTuning(7, 12, 3.5,
                TuningReason.HELD, 0.001, 0.99, 3.4, true)));
        MetricSnapshots on = new DaemonMetrics(
                () -> CompletableFuture.completedFuture(tuned), List.of()).collect();
        GaugeSnapshot c = on.stream()
                .filter(m -> m.getMetadata().getName().equals("ricochet_daemon_rate_of_fire_c"))
                .map(m -> (GaugeSnapshot) m).findFirst().orElseThrow();
        assertEquals(3.5, c.getDataPoints().get(0).getValue());
        assertEquals("7", c.getDataPoints().get(0).getLabels().get("group"));
        GaugeSnapshot r = on.stream()
                .filter(m -> m.getMetadata().getName().equals("ricochet_daemon_rate_of_fire_r"))
                .map(m -> (GaugeSnapshot) m).findFirst().orElseThrow();
        assertEquals(12, r.getDataPoints().get(0).getValue());
        DaemonMetrics.Reading plain = new DaemonMetrics.Reading(stats, 0, Map.of());
        assertEquals(0, new DaemonMetrics(() -> CompletableFuture.completedFuture(plain),
                List.of()).collect().stream()
                .filter(m -> m.getMetadata().getName().equals("ricochet_daemon_rate_of_fire_c")).count());
    }
}
