package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.sim.LatencyStats;
import io.ricochet.workload.LatencyHistogram;
import io.ricochet.workload.StatsDigest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DaemonStatsTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldMeasureRecoveryFromTheInjectedDropAndSendEachDistributionAsAHistogram() {
        DaemonStats stats = new DaemonStats();
        PacketId a = new PacketId(1, 7, 0);
        PacketId b = new PacketId(1, 7, 1);
        stats.injectedDrop(a, 0);
        stats.injectedDrop(b, 0);
        stats.discovered(a, 2 * MS);
        stats.recovered(a, Delivery.LEC, 5 * MS);
        stats.recovered(b, Delivery.NAK, 150 * MS);

        Map<String, Object> snapshot = stats.snapshot();

        assertEquals(2L, snapshot.get("injectedDrops"));
        LatencyStats.Summary lec = (LatencyStats.Summary) snapshot.get("lecRecoveryLatencyMs");
        assertEquals(1, lec.count());
        assertEquals(5.0, lec.mean(), 0.01, "recovered 5 ms after the drop");
        LatencyStats.Summary nak = (LatencyStats.Summary) snapshot.get("nakRecoveryLatencyMs");
        assertEquals(1, nak.count());
        assertEquals(150.0, nak.mean(), 0.1);
        assertEquals(1, ((LatencyStats.Summary) snapshot.get("discoveryLatencyMs")).count());
        Map<?, ?> histograms = (Map<?, ?>) snapshot.get(StatsDigest.LATENCY_HISTOGRAMS);
        for (String key : new String[] {"lecRecoveryLatencyMs", "nakRecoveryLatencyMs", "discoveryLatencyMs",
                "recoveryAfterDiscoveryMs"}) {
            LatencyHistogram h = LatencyHistogram.decode((String) histograms.get(key));
            assertEquals(snapshot.get(key), h.summary(), key);
        }
    }
}
