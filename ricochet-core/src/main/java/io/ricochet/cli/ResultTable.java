package io.ricochet.cli;

import io.ricochet.engine.Counter;
import io.ricochet.engine.CounterRole;
import io.ricochet.latency.LatencyStats;
import io.ricochet.nak.NakCounter;
import io.ricochet.sim.SimResult;
import java.util.Locale;
import java.util.Map;

/** The human-readable report of a simulation run printed by {@code ricochet simulate}. */
final class ResultTable {

    private static final String ROW = "%-24s%14s   %s";
    private static final String LATENCY_ROW = "%-24s%14s%10s%10s%10s%10s";

    private final StringBuilder text = new StringBuilder();

    private ResultTable() {
    }

    /**
     * Renders {@code result}; the wall-clock time goes only here, never in the JSON.
     *
     * @param result      the run's figures
     * @param wallSeconds how long the run took
     * @return lines ending with a newline
     */
    static String render(SimResult result, double wallSeconds) {
        ResultTable table = new ResultTable();
        table.parameters(result.parameters());
        table.outcomes(result);
        table.latencies(result);
        table.costs(result);
        table.line(String.format(Locale.ROOT, "%-24s%s", "verification", verification(result)));
        table.row("wall clock", String.format(Locale.ROOT, "%.1f s", wallSeconds), "");
        return table.text.toString();
    }

    /** The verification verdict: all good, or what went wrong. */
    static String verification(SimResult result) {
        if (result.verified()) {
            return "every payload verified, nothing delivered twice";
        }
        return "FAILED: " + result.corruptDeliveries() + " corrupt payload(s), " + result.duplicateDeliveries()
                + " duplicate delivery(ies)";
    }

    /** Workload keys; every other parameter is a setting of the protocol, printed on the second line. */
    private static final java.util.Set<String> WORKLOAD = java.util.Set.of("nodes", "degree", "groupSize", "groups",
            "loss", "lossScope", "seconds", "drainSeconds", "ratePerNode", "sendRatePerNode", "payload", "latencyUs",
            "seed", "protocol");

    private void parameters(Map<String, Object> p) {
        line("n=" + value(p, "nodes") + "  d=" + value(p, "degree") + "  s=" + value(p, "groupSize")
                + "  groups=" + value(p, "groups") + "  loss=" + value(p, "loss") + "  scope=" + value(p, "lossScope")
                + "  seconds=" + value(p, "seconds") + "  seed=" + value(p, "seed"));
        StringBuilder settings = new StringBuilder("protocol=" + value(p, "protocol"));
        p.forEach((key, v) -> {
            if (!WORKLOAD.contains(key)) {
                settings.append("  ").append(key).append('=').append(value(p, key));
            }
        });
        line(settings.toString());
        line("");
    }

    private void outcomes(SimResult result) {
        row("data packets", result.dataPackets(), "");
        row("losses", result.losses(), percent(share(result.losses(), result.dataPackets())) + " of data");
        row("recovered by LEC", result.lecRecovered(), percent(result.lecRecoveryPercent()));
        row("recovered by NAK", result.nakRecovered(), percent(result.nakRecoveryPercent()));
        row("late arrivals", result.lateArrivals(), "");
        row("unrecovered", result.unrecovered(), percent(result.unrecoveredPercent()));
        line("");
    }

    private void latencies(SimResult result) {
        line(String.format(Locale.ROOT, LATENCY_ROW, "latency (ms)", "count", "mean", "p50", "p99", "max"));
        latency("  recovery", result.recoveryLatencyMs());
        latency("  LEC recovery", result.lecRecoveryLatencyMs());
        latency("  NAK recovery", result.nakRecoveryLatencyMs());
        latency("  discovery", result.discoveryLatencyMs());
        line("");
    }

    private void costs(SimResult result) {
        row("overhead", percent(result.overheadPercent()), "proactive repairs / (data + repairs), on the wire");
        row("control messages", Decimals.plain(result.controlPerNodePerSecond()), "per node per second");
        row("XORs per data packet", Decimals.plain(result.xorsPerDataPacket()), "");
        row("repairs sent", repairsSent(result), "");
        row("NAKs sent", counter(result, NakCounter.NAKS_SENT), "");
        row("sessions sent", counter(result, NakCounter.SESSIONS_SENT), "");
    }

    private void latency(String label, LatencyStats.Summary s) {
        line(String.format(Locale.ROOT, LATENCY_ROW, label, s.count(), ms(s.mean()), ms(s.p50()), ms(s.p99()),
                ms(s.max())));
    }

    private void row(String label, Object value, String note) {
        line(String.format(Locale.ROOT, ROW, label, value, note));
    }

    private void line(String s) {
        text.append(s.stripTrailing()).append('\n');
    }

    private static String value(Map<String, Object> parameters, String key) {
        Object v = parameters.get(key);
        if (v instanceof Boolean b) {
            return b ? "on" : "off";
        }
        if (v instanceof Double d) {
            return Decimals.plain(d);
        }
        return String.valueOf(v);
    }

    private static long counter(SimResult result, Counter counter) {
        return result.counters().getOrDefault(counter, 0L);
    }

    /** The proactive repairs the run's protocol sent (LEC's or FEC's), 0 for one without them. */
    private static long repairsSent(SimResult result) {
        return CounterRole.REPAIRS_SENT.among(result.counters().keySet()).stream()
                .mapToLong(c -> counter(result, c)).sum();
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static String percent(double p) {
        return String.format(Locale.ROOT, "%.3f%%", p);
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
