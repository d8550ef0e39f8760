package io.ricochet.workload;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a daemon's stats (the map {@code ricochet stats --json} prints) taken before and after a workload: the
 * change of every engine counter ({@code counters.*}) and of every number directly under {@code daemon}
 * (injected drops, ...), and the daemon's latency summaries ({@code daemon.*Ms}). Counters only grow, so the
 * difference is what this workload caused even on a daemon that ran earlier workloads. Latency summaries cannot be
 * subtracted: they cover the daemon's whole life.
 */
public final class StatsDigest {
    /** Counter names as the summary reports them. */
    public static final String RECOVERED_BY_LEC = "RECOVERED_BY_XOR";
    public static final String RECOVERED_BY_NAK = "RECOVERED_BY_NAK";
    public static final String UNRECOVERED = "UNRECOVERED";
    public static final String RX_BUFFER_DROPS = "RX_BUFFER_RANDOM_DROPS";
    public static final String INJECTED_DROPS = "injectedDrops";

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

    private static Map<?, ?> section(Map<String, Object> stats, String name) {
        return stats != null && stats.get(name) instanceof Map<?, ?> map ? map : Map.of();
    }
}
