package io.ricochet.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;

/** Writes a {@link ClusterSummary} as the summary JSON file and as the short table the scripts print. */
public final class SummaryReport {
    private SummaryReport() {
    }

    /** The summary as JSON. */
    public static ObjectNode toJson(ClusterSummary s) {
        ObjectNode json = WorkloadJson.MAPPER.createObjectNode();
        json.put("verdict", s.verdict());
        json.put("exactlyOnce", s.ok());
        json.set("totals", WorkloadJson.MAPPER.valueToTree(s.totals()));
        ObjectNode recovery = json.putObject("recovery");
        recovery.put("recoveredByLec", s.daemon(StatsDigest.RECOVERED_BY_LEC));
        recovery.put("recoveredByNak", s.daemon(StatsDigest.RECOVERED_BY_NAK));
        recovery.put("unrecovered", s.daemon(StatsDigest.UNRECOVERED));
        recovery.put("lecPercent", percent(s.daemon(StatsDigest.RECOVERED_BY_LEC), losses(s)));
        recovery.put("nakPercent", percent(s.daemon(StatsDigest.RECOVERED_BY_NAK), losses(s)));
        ObjectNode loss = json.putObject("loss");
        loss.put("injectedDrops", s.daemon(StatsDigest.INJECTED_DROPS));
        loss.put("nftDrops", s.kernelTotals().getOrDefault("nftDrops", 0L));
        loss.put("rxBufferDrops", s.daemon(StatsDigest.RX_BUFFER_DROPS));
        loss.put("kernelRcvbufErrors", s.kernelTotals().getOrDefault("RcvbufErrors", 0L));
        ObjectNode latency = json.putObject("latencyMs");
        latency.set("endToEnd", WorkloadJson.MAPPER.valueToTree(s.endToEnd()));
        s.daemonLatencies().forEach((k, v) -> latency.set(k, WorkloadJson.MAPPER.valueToTree(v)));
        latency.put("note", "endToEnd merges every node's histogram (exact); the daemon latencies cover each "
                + "daemon's life: with exact=true they merge the daemons' histograms (every figure exact; "
                + "recoveryLatencyMs is LEC and NAK together), otherwise they combine per-node summaries (mean "
                + "exact, p50 count-weighted, p99/max worst node)");
        ObjectNode violations = json.putObject("violations");
        s.violations().forEach((kind, log) -> violations.set(kind, WorkloadJson.violations(log)));
        s.nodesWithoutResult().forEach(json.putArray("nodesWithoutResult")::add);
        json.set("daemonCounters", WorkloadJson.MAPPER.valueToTree(s.daemonTotals()));
        json.set("kernelTotals", WorkloadJson.MAPPER.valueToTree(s.kernelTotals()));
        json.set("kernel", WorkloadJson.MAPPER.valueToTree(s.kernel()));
        json.set("perNode", WorkloadJson.MAPPER.valueToTree(s.perNode()));
        ObjectNode groups = json.putObject("groups");
        s.groups().forEach((g, nodes) -> nodes.forEach(groups.putArray(String.valueOf(g))::add));
        return json;
    }

    /** Losses the daemons resolved one way or another: recovered by LEC or NAK, or given up. */
    private static long losses(ClusterSummary s) {
        return s.daemon(StatsDigest.RECOVERED_BY_LEC) + s.daemon(StatsDigest.RECOVERED_BY_NAK)
                + s.daemon(StatsDigest.UNRECOVERED);
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : Math.round(1000.0 * part / whole) / 10.0;
    }

    /** The short table: the verdict, the check's counts, recovery, loss sources and one line per node. */
    public static String table(ClusterSummary s) {
        ClusterSummary.Totals t = s.totals();
        StringBuilder out = new StringBuilder();
        line(out, "verdict", s.verdict() + (s.ok() ? ": every packet reached every other member of its group "
                + "exactly once, intact" : ""));
        line(out, "groups", s.groups().size() + " (" + groupSizes(s) + ")");
        line(out, "sent", t.sent() + " packets in " + String.format(Locale.ROOT, "%.1f", t.sendSeconds()) + " s");
        line(out, "expected deliveries", String.valueOf(t.expected()));
        line(out, "delivered", t.delivered() + String.format(Locale.ROOT, " (%.3f %%)",
                t.expected() == 0 ? 0.0 : 100.0 * t.delivered() / t.expected()));
        line(out, "missing / duplicates", t.missing() + " / " + t.duplicates());
        line(out, "corrupt / unexpected", t.corrupt() + " / " + t.unexpected());
        line(out, "lost notices", String.valueOf(t.lostNotices()));
        long losses = losses(s);
        line(out, "losses recovered", losses + ": LEC " + s.daemon(StatsDigest.RECOVERED_BY_LEC) + " ("
                + percent(s.daemon(StatsDigest.RECOVERED_BY_LEC), losses) + " %), NAK "
                + s.daemon(StatsDigest.RECOVERED_BY_NAK) + " (" + percent(s.daemon(StatsDigest.RECOVERED_BY_NAK),
                losses) + " %), given up " + s.daemon(StatsDigest.UNRECOVERED));
        line(out, "loss sources", "injected " + s.daemon(StatsDigest.INJECTED_DROPS) + ", nftables "
                + s.kernelTotals().getOrDefault("nftDrops", 0L) + ", daemon rx buffer "
                + s.daemon(StatsDigest.RX_BUFFER_DROPS) + ", kernel RcvbufErrors "
                + s.kernelTotals().getOrDefault("RcvbufErrors", 0L));
        line(out, "latency end-to-end", latency(s.endToEnd().mean(), s.endToEnd().p50(), s.endToEnd().p99(),
                s.endToEnd().max()));
        latencyLine(out, s, "lecRecoveryLatencyMs", "LEC recovery");
        latencyLine(out, s, "nakRecoveryLatencyMs", "NAK recovery");
        latencyLine(out, s, "recoveryLatencyMs", "all recovery");
        s.violations().forEach((kind, log) -> log.first().stream().limit(3).forEach(v -> line(out, "  " + kind,
                "origin " + v.origin() + " group " + v.group() + " seqno " + v.seqno() + " at node " + v.receiver()
                        + (v.detail().isEmpty() ? "" : ": " + v.detail()))));
        if (!s.nodesWithoutResult().isEmpty()) {
            line(out, "no result from nodes", s.nodesWithoutResult().toString());
        }
        out.append(String.format(Locale.ROOT, "%n%5s %7s %8s %9s %7s %5s %5s %8s %6s %6s %8s %7s %6s%n", "node",
                "sent", "owed", "delivered", "missing", "dup", "lost", "injected", "LEC", "NAK", "rx-drops",
                "rcvbuf", "nft"));
        for (ClusterSummary.NodeRow r : s.perNode()) {
            out.append(String.format(Locale.ROOT, "%5d %7d %8d %9d %7d %5d %5d %8d %6d %6d %8d %7d %6d%n", r.node(),
                    r.sent(), r.expected(), r.delivered(), r.missing(), r.duplicates(), r.lost(), r.injectedDrops(),
                    r.lec(), r.nak(), r.rxDrops(), r.rcvbufErrors(), r.nftDrops()));
        }
        return out.toString();
    }

    private static void latencyLine(StringBuilder out, ClusterSummary s, String key, String label) {
        LatencyBlend b = s.daemonLatencies().get(key);
        if (b != null && b.count() > 0) {
            line(out, "latency " + label, latency(b.mean(), b.p50(), b.p99(), b.max()) + " (" + b.count()
                    + " recoveries" + (b.exact() ? "" : "; p50, p99 per-node estimates") + ")");
        }
    }

    private static String latency(double mean, double p50, double p99, double max) {
        return String.format(Locale.ROOT, "mean %.3f, p50 %.3f, p99 %.3f, max %.3f ms", mean, p50, p99, max);
    }

    private static String groupSizes(ClusterSummary s) {
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (Map.Entry<Integer, java.util.SortedSet<Integer>> e : s.groups().entrySet()) {
            min = Math.min(min, e.getValue().size());
            max = Math.max(max, e.getValue().size());
        }
        return s.groups().isEmpty() ? "none" : min == max ? min + " members each" : min + ".." + max + " members";
    }

    private static void line(StringBuilder out, String label, String value) {
        out.append(String.format(Locale.ROOT, "%-22s %s%n", label, value));
    }
}
