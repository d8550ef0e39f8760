package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetEngine;
import java.util.SplittableRandom;

import io.ricochet.api.NodeStats;
import io.ricochet.latency.LatencyStats;
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

    @Test
    void shouldShowEachGroupsRateOfFireOnlyWithTuningOn() throws Exception {
        RicochetEngine off = new RicochetEngine(1, RicochetConfig.builder().build(), new SplittableRandom(1),
                new RecordingOutbox());
        assertNull(StatsReport.rateOfFire(off), "absent with tuning off");
        RicochetEngine on = new RicochetEngine(1, RicochetConfig.builder().tuning(TuningSettings.on()).build(),
                new SplittableRandom(1), new RecordingOutbox());
        assertEquals(Map.of(), StatsReport.rateOfFire(on), "no group seen yet");

        Map<Integer, String> lines = Map.of(7, "r 8, c 3.0, stagger 1: target met (loss 0.100 %, LEC 91.0 %, node's "
                + "evidence)");
        NodeStats stats = new NodeStats(4, 1, "ricochet", "epoll", "HMAC", 0, Map.of(), 0, null, Map.of(), List.of(7),
                Map.of(), null, null, 5, 6, lines);
        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(stats);
        assertTrue(text.contains("\"rateOfFire\":{\"7\":\"r 8, c 3.0, stagger 1: target met"), text);
        assertEquals(lines, json.readValue(text, NodeStats.class).rateOfFire());
        assertTrue(!json.writeValueAsString(stats.withApi(Map.of())).isEmpty());
    }
}
