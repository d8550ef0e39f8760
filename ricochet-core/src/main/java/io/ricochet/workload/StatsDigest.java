package io.ricochet.workload;

import io.ricochet.api.NodeStats;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.driver.LatencyStats;
import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
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
    /** The counters the workload summary reports. */
    public static final Counter RECOVERED_BY_LEC = LecCounter.RECOVERED_BY_XOR;
    public static final Counter RECOVERED_BY_NAK = EngineCounter.RECOVERED_BY_NAK;
    public static final Counter UNRECOVERED = EngineCounter.UNRECOVERED;
    public static final Counter RX_BUFFER_DROPS = DaemonCounter.RX_BUFFER_RANDOM_DROPS;
    public static final Counter INJECTED_DROPS = DaemonCounter.INJECTED_DROPS;

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
