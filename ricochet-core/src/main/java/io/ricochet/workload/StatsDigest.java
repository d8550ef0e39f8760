package io.ricochet.workload;

import io.ricochet.api.NodeStats;
import io.ricochet.latency.LatencyStats;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a daemon's stats ({@link NodeStats}) taken before and after a workload: the change of every counter (the
 * engine's and the daemon's), and the daemon's latency summaries and histograms. Counters only grow, so the
 * difference is what this workload caused even on a daemon that ran earlier workloads. Latency summaries cannot be
 * subtracted: they cover the daemon's whole life; the histograms let nodes' recordings be merged exactly.
 */
public final class StatsDigest {
    /**
     * The counters the workload summary reports, by the name a daemon's stats give them ({@link NodeStats#counters()}):
     * the workload reads a daemon over its API and knows neither the daemon's nor a protocol's counter classes.
     */
    public static final String RECOVERED_BY_LEC = "RECOVERED_BY_XOR";
    public static final String RECOVERED_BY_NAK = "RECOVERED_BY_NAK";
    public static final String UNRECOVERED = "UNRECOVERED";
    public static final String RX_BUFFER_DROPS = "RX_BUFFER_RANDOM_DROPS";
    public static final String INJECTED_DROPS = "INJECTED_DROPS";

    private StatsDigest() {
    }

    /** After minus before, for every counter, by name; a counter missing before counts as 0 there. */
    public static SortedMap<String, Long> deltas(NodeStats before, NodeStats after) {
        SortedMap<String, Long> out = new TreeMap<>();
        Map<String, Long> was = before == null || before.counters() == null ? Map.of() : before.counters();
        if (after != null && after.counters() != null) {
            after.counters().forEach((name, now) -> out.put(name, now - was.getOrDefault(name, 0L)));
        }
        return out;
    }

    /** The daemon's latency summaries, keyed by name ({@code lecRecoveryLatencyMs}, ...). */
    public static SortedMap<String, LatencyStats.Summary> latencies(NodeStats stats) {
        SortedMap<String, LatencyStats.Summary> out = new TreeMap<>();
        NodeStats.Latencies l = stats == null ? null : stats.daemon();
        if (l != null) {
            put(out, "lecRecoveryLatencyMs", l.lecRecoveryLatencyMs());
            put(out, "nakRecoveryLatencyMs", l.nakRecoveryLatencyMs());
            put(out, "discoveryLatencyMs", l.discoveryLatencyMs());
            put(out, "recoveryAfterDiscoveryMs", l.recoveryAfterDiscoveryMs());
        }
        return out;
    }

    private static void put(Map<String, LatencyStats.Summary> out, String name, LatencyStats.Summary summary) {
        if (summary != null) {
            out.put(name, summary);
        }
    }

    /**
     * The latency histograms, decoded, keyed like their summaries; empty for a daemon that does not send them.
     *
     * @throws IllegalArgumentException if one is not an encoded histogram
     */
    public static SortedMap<String, LatencyHistogram> histograms(NodeStats stats) {
        SortedMap<String, LatencyHistogram> out = new TreeMap<>();
        Map<String, String> encoded = stats == null || stats.daemon() == null ? null
                : stats.daemon().latencyHistograms();
        if (encoded != null) {
            new LinkedHashMap<>(encoded).forEach((key, base64) -> out.put(key, LatencyHistogram.decode(base64)));
        }
        return out;
    }
}
