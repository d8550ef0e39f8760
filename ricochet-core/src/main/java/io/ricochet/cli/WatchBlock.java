package io.ricochet.cli;

import io.ricochet.api.NodeStats;
import io.ricochet.cli.StatsSource.Sample;
import io.ricochet.latency.LatencyStats;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One block of {@code ricochet stats --watch}: the counters as rates per second since the previous block (gauges
 * as their level), then the recovery latencies measured so far, the buffers in use and the GMS links. The first
 * block, and the first after the daemon restarted, gives totals since the daemon started instead.
 */
final class WatchBlock {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final double TENTHS = 10.0;

    private WatchBlock() {
    }

    /**
     * @param before the previous sample that was answered, or null
     * @param now    an answered sample
     * @param all    whether counters at 0 (or at a rate of 0) are shown too
     * @param time   the wall-clock time of {@code now}
     */
    static String render(Sample before, Sample now, boolean all, LocalTime time) {
        NodeStats s = now.stats();
        CounterRates rates = before == null ? null
                : CounterRates.between(before.stats(), s, now.atNs() - before.atNs());
        Map<String, Object> stats = StatsCommand.asMap(s);
        Map<String, Object> block = new LinkedHashMap<>();
        String what;
        if (rates == null) {
            what = before == null ? "totals since the daemon started" : "the daemon restarted: totals since then";
            Map<String, Object> counters = all ? stats : StatsFilter.withoutZeroCounters(stats).stats();
            block.put("counters", counters.get("counters"));
            block.put("api", counters.get("api"));
        } else {
            what = "per second over the last " + Decimals.plain(Math.round(rates.seconds() * TENTHS) / TENTHS) + " s";
            Map<String, Object> counterRates = new LinkedHashMap<>();
            Map<String, Object> apiRates = new LinkedHashMap<>();
            rates.perSecond().forEach((name, rate) -> {
                double shown = Math.round(rate * TENTHS) / TENTHS;
                if (all || shown != 0 || StatsFilter.HEADLINE.contains(name)) {
                    boolean api = s.api() != null && s.api().containsKey(name);
                    (api ? apiRates : counterRates).put(name, shown);
                }
            });
            block.put("counters/s", counterRates);
            block.put("api/s", apiRates);
            block.put("gauges", gauges(s, all));
        }
        block.put("recovery ms", latencies(s.daemon()));
        block.put("buffers", all ? s.buffers() : StatsFilter.nonZero(s.buffers()));
        block.put("gms", stats.get("gms"));
        block.values().removeIf(section -> section == null || section instanceof Map<?, ?> m && m.isEmpty());
        return "--- " + time.format(CLOCK) + " node " + s.node() + " (" + s.protocol() + "): " + what + " ---\n"
                + StatsCommand.table(block);
    }

    /** Each latency measured so far, as "p50 P, p99 Q (count N)", since the daemon started. */
    private static Map<String, String> latencies(NodeStats.Latencies l) {
        Map<String, String> shown = new LinkedHashMap<>();
        if (l != null) {
            latency(shown, "lec", l.lecRecoveryLatencyMs());
            latency(shown, "nak", l.nakRecoveryLatencyMs());
            latency(shown, "discovery", l.discoveryLatencyMs());
            latency(shown, "afterDiscovery", l.recoveryAfterDiscoveryMs());
        }
        return shown;
    }

    private static void latency(Map<String, String> shown, String name, LatencyStats.Summary s) {
        if (s != null && s.count() > 0) {
            shown.put(name, "p50 " + Decimals.plain(s.p50()) + ", p99 " + Decimals.plain(s.p99()) + " (count "
                    + s.count() + ")");
        }
    }

    private static Map<String, Long> gauges(NodeStats s, boolean all) {
        Map<String, Long> levels = new LinkedHashMap<>();
        for (Map<String, Long> section : java.util.Arrays.asList(s.counters(), s.api())) {
            if (section != null) {
                section.forEach((name, value) -> {
                    if (CounterRates.GAUGES.contains(name) && (all || value != 0)) {
                        levels.put(name, value);
                    }
                });
            }
        }
        return levels;
    }
}
