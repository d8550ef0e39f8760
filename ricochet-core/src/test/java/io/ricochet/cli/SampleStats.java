package io.ricochet.cli;

import io.ricochet.api.NodeStats;
import io.ricochet.cli.StatsSource.Sample;
import io.ricochet.client.ApiAddress;
import io.ricochet.latency.LatencyStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fixed daemon stats for the live views' tests. */
final class SampleStats {
    static final ApiAddress ADDRESS = ApiAddress.parse("127.0.0.1:7400");
    private static final LatencyStats.Summary EMPTY = new LatencyStats.Summary(0, 0, 0, 0, 0);

    private SampleStats() {
    }

    /** Node 3, incarnation 1, with {@code counters} (name, value pairs) and two GMS partitions up in term 4. */
    static NodeStats node(long incarnation, Object... counters) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (int i = 0; i < counters.length; i += 2) {
            values.put((String) counters[i], ((Number) counters[i + 1]).longValue());
        }
        NodeStats.Latencies latencies = new NodeStats.Latencies(EMPTY, EMPTY, EMPTY,
                new LatencyStats.Summary(40, 2.5, 1.25, 31.5, 40), Map.of("lecRecoveryLatencyMs", "HISTbase64=="));
        Map<Integer, NodeStats.GmsLink> gms = new LinkedHashMap<>();
        gms.put(0, new NodeStats.GmsLink(true, "198.18.0.200:7100", 4, 90));
        gms.put(1, new NodeStats.GmsLink(true, "198.18.0.201:7101", 3, 70));
        return new NodeStats(3, incarnation, "ricochet", "epoll", "HMAC", 425_984, values, 0.5, latencies,
                Map.of("rxBufferPackets", 12L), List.of(1, 2), Map.of(), Map.of("CONNECTIONS_OPEN", 1L), gms);
    }

    static Sample at(long atNs, NodeStats stats) {
        return new Sample(ADDRESS, stats, null, atNs);
    }
}
