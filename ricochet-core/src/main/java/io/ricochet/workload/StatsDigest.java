package io.ricochet.workload;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a daemon's stats (the map {@code ricochet stats --json} prints) taken before and after a workload: the
 * change of every engine counter ({@code counters.*}) and of every number directly under {@code daemon}
 * (injected drops, ...), and the daemon's latency summaries ({@code daemon.*Ms}). Counters only grow, so the
 * difference is what this workload caused even on a daemon that ran earlier workloads. Latency summaries cannot be
 * subtracted: they cover the daemon's whole life. The same distributions come as compressed histograms
 * ({@code daemon.latencyHistograms}), so that nodes' recordings can be merged exactly.
 */
public final class StatsDigest {
    /** Counter names as the summary reports them. */
    public static final String RECOVERED_BY_LEC = "RECOVERED_BY_XOR";
    public static final String RECOVERED_BY_NAK = "RECOVERED_BY_NAK";
    public static final String UNRECOVERED = "UNRECOVERED";
    public static final String RX_BUFFER_DROPS = "RX_BUFFER_RANDOM_DROPS";
    public static final String INJECTED_DROPS = "injectedDrops";
    /** Under {@code daemon}: the latency distributions as compressed histograms, keyed like their summaries. */
    public static final String LATENCY_HISTOGRAMS = "latencyHistograms";

    private StatsDigest() {
    }

    /** After minus before, for every counter and every number under {@code daemon}; missing values count as 0. */
    public static SortedMap<String, Long> deltas(Map<String, Object> before, Map<String, Object> after) {
        SortedMap<String, Long> out = new TreeMap<>();
        for (String section : new String[] {"counters", "daemon"}) {
            Map<?, ?> was = section(before, section);
            section(after, section).forEach((key, value) -> {
                if (value instanceof Number now && !(was.get(key) instanceof Map)) {
                    long old = was.get(key) instanceof Number n ? n.longValue() : 0;
                    out.put(String.valueOf(key), now.longValue() - old);
                }
            });
        }
        return out;
    }

    /** The latency summaries under {@code daemon} (keys ending in {@code Ms}), each a map of count, mean, ... */
    public static SortedMap<String, Map<?, ?>> latencies(Map<String, Object> stats) {
        SortedMap<String, Map<?, ?>> out = new TreeMap<>();
        section(stats, "daemon").forEach((key, value) -> {
            if (String.valueOf(key).endsWith("Ms") && value instanceof Map<?, ?> summary) {
                out.put(String.valueOf(key), summary);
            }
        });
        return out;
    }

    /**
     * The latency histograms under {@code daemon.latencyHistograms}, decoded, keyed like their summaries; empty for
     * a daemon that does not send them.
     *
     * @throws IllegalArgumentException if one is not an encoded histogram
     */
    public static SortedMap<String, LatencyHistogram> histograms(Map<String, Object> stats) {
        SortedMap<String, LatencyHistogram> out = new TreeMap<>();
        if (section(stats, "daemon").get(LATENCY_HISTOGRAMS) instanceof Map<?, ?> encoded) {
            encoded.forEach((key, value) -> {
                if (value instanceof String base64) {
                    out.put(String.valueOf(key), LatencyHistogram.decode(base64));
                }
            });
        }
        return out;
    }

    private static Map<?, ?> section(Map<String, Object> stats, String name) {
        return stats != null && stats.get(name) instanceof Map<?, ?> map ? map : Map.of();
    }
}
