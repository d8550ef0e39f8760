package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.api.NodeStats;
import io.ricochet.driver.LatencyStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsReportTest {
    private static final LatencyStats.Summary NONE = new LatencyStats.Summary(0, 0, 0, 0, 0);

    @Test
    void shouldLogNonZeroCountersAndBuffersPercentilesAndLinksWithoutHistograms() {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("DATA_SENT", 120L);
        counters.put("NAKS_SENT", 0L);
        counters.put("RECOVERED_BY_XOR", 9L);
        Map<String, Long> buffers = new LinkedHashMap<>();
        buffers.put("streams", 3L);
        buffers.put("pendingLosses", 0L);
        NodeStats.Latencies latencies = new NodeStats.Latencies(new LatencyStats.Summary(9, 1, 0.8, 4.5, 5), NONE,
                NONE, new LatencyStats.Summary(11, 2, 0.9, 30.5, 31), Map.of("lecRecoveryLatencyMs", "HISTaaaa=="));
        NodeStats stats = new NodeStats(4, 1, "ricochet", "epoll", "HMAC", 0, counters, 0.2, latencies, buffers,
                List.of(1), Map.of(), null, Map.of(0, new NodeStats.GmsLink(true, "10.0.0.1:7100", 3, 8)));

        assertEquals("node 4 (ricochet) counters: {DATA_SENT=120, RECOVERED_BY_XOR=9}; buffers: {streams=3}; "
                + "recovery ms p50/p99 (count): lec 0.8/4.5 (9) after discovery 0.9/30.5 (11); gms: p0 up term 3",
                StatsReport.logLine(stats));
    }
}
