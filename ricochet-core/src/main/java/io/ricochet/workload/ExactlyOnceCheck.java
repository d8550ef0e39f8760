package io.ricochet.workload;

import io.ricochet.latency.LatencyStats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster-wide exactly-once check of a workload. For every packet {@code (origin, group, seqno)} some node
 * sent, every other member of the group must have received it exactly once, with an intact payload; nothing
 * else may be delivered, and no daemon may have given up on a packet. Membership comes from the plan, or, without
 * one, from the groups each result says its node joined. Pure: no I/O.
 */
public final class ExactlyOnceCheck {
    /** The daemons' latency keys: LEC and NAK recovery, and (computed here) both together. */
    static final String LEC = "lecRecoveryLatencyMs";
    static final String NAK = "nakRecoveryLatencyMs";
    static final String RECOVERY = "recoveryLatencyMs";

    private final SortedMap<Integer, SortedSet<Integer>> members;
    private final SortedMap<Integer, NodeResult> byNode = new TreeMap<>();
    private final SortedMap<String, ViolationLog> violations = new TreeMap<>();
    private final SortedMap<Integer, long[]> rows = new TreeMap<>();
    private final SortedSet<Integer> withoutResult = new TreeSet<>();
    private long sent;
    private long expected;
    private long delivered;

    private ExactlyOnceCheck(SortedMap<Integer, SortedSet<Integer>> members, Collection<NodeResult> results) {
        this.members = members;
        for (NodeResult r : results) {
            if (byNode.put(r.node(), r) != null) {
                throw new IllegalArgumentException("two results for node " + r.node());
            }
        }
        for (String kind : new String[] {"missing", "duplicates", "corrupt", "unexpected", "lost"}) {
            violations.put(kind, new ViolationLog());
        }
    }

    /**
     * Checks {@code results} against {@code members}.
     *
     * @param members group to its members; null to take each node's joined groups from its result
     * @param results one result per node
     * @param kernel  namespace to kernel counters (RcvbufErrors, nftDrops, ...) as the cluster script wrote them;
     *                node namespaces are keyed by node id; may be empty
     * @throws IllegalArgumentException if two results are for the same node
     */
    public static ClusterSummary check(Map<Integer, ? extends Set<Integer>> members, Collection<NodeResult> results,
                                       Map<String, Map<String, Long>> kernel) {
        SortedMap<Integer, SortedSet<Integer>> groups = new TreeMap<>();
        if (members != null) {
            members.forEach((g, nodes) -> groups.put(g, new TreeSet<>(nodes)));
        } else {
            SortedMap<Integer, List<Integer>> joined = new TreeMap<>();
            results.forEach(r -> joined.put(r.node(), r.groups()));
            groups.putAll(WorkloadPlan.membersOf(joined));
        }
        return new ExactlyOnceCheck(groups, results).run(kernel);
    }

    private ClusterSummary run(Map<String, Map<String, Long>> kernel) {
        members.values().forEach(nodes -> nodes.forEach(n -> rows.put(n, new long[Col.values().length])));
        byNode.keySet().forEach(n -> rows.computeIfAbsent(n, k -> new long[Col.values().length]));
        byNode.values().forEach(this::checkSends);
        byNode.values().forEach(this::checkReceipts);
        ClusterSummary.Totals totals = totals();
        String verdict = expected == 0 ? ClusterSummary.NOTHING_CHECKED
                : violations.values().stream().allMatch(v -> v.count() == 0) && withoutResult.isEmpty()
                ? ClusterSummary.EXACTLY_ONCE : ClusterSummary.VIOLATIONS;
        return new ClusterSummary(verdict, members, totals, violations, List.copyOf(withoutResult), daemonTotals(),
                endToEnd(), daemonLatencies(), kernel, kernelTotals(kernel), nodeRows(kernel));
    }

    /** Each packet the origin sent is owed once to every other member of its group. */
    private void checkSends(NodeResult origin) {
        origin.sent().forEach((group, seqnos) -> {
            sent += seqnos.count();
            row(origin.node())[Col.SENT.ordinal()] += seqnos.count();
            for (int member : members.getOrDefault(group, new TreeSet<>())) {
                if (member != origin.node()) {
                    owe(new StreamKey(origin.node(), group), seqnos, member);
                }
            }
        });
    }

    private void owe(StreamKey stream, SeqnoRanges seqnos, int member) {
        NodeResult receiver = byNode.get(member);
        if (receiver == null) {
            withoutResult.add(member);
        }
        SeqnoRanges got = receiver == null ? new SeqnoRanges()
                : receiver.deliveries().received().getOrDefault(stream, new SeqnoRanges());
        long common = got.countCommon(seqnos);
        long missing = seqnos.count() - common;
        expected += seqnos.count();
        delivered += common;
        long[] row = row(member);
        row[Col.EXPECTED.ordinal()] += seqnos.count();
        row[Col.DELIVERED.ordinal()] += common;
        row[Col.MISSING.ordinal()] += missing;
        if (missing > 0) {
            violations.get("missing").addAll(missing, samples(stream, seqnos.firstNotIn(got, ViolationLog.SAMPLES),
                    member, ""));
        }
    }

    /** What a node received beyond what it was owed, and what its recorder flagged. */
    private void checkReceipts(NodeResult receiver) {
        int node = receiver.node();
        DeliveryRecorder.Snapshot d = receiver.deliveries();
        d.received().forEach((stream, got) -> {
            SeqnoRanges owed = owed(stream, node);
            long extra = got.count() - got.countCommon(owed);
            if (extra > 0) {
                violations.get("unexpected").addAll(extra, samples(stream,
                        got.firstNotIn(owed, ViolationLog.SAMPLES), node, "not sent to this node"));
            }
        });
        d.lost().forEach((stream, seqnos) -> violations.get("lost").addAll(seqnos.count(),
                samples(stream, seqnos.firstNotIn(new SeqnoRanges(), ViolationLog.SAMPLES), node, "")));
        violations.get("duplicates").addAll(d.duplicates().count(), d.duplicates().first());
        violations.get("corrupt").addAll(d.corrupt().count(), d.corrupt().first());
        long[] row = row(node);
        row[Col.DUPLICATES.ordinal()] += d.duplicates().count();
        row[Col.LOST.ordinal()] += d.lost().values().stream().mapToLong(SeqnoRanges::count).sum();
    }

    private SeqnoRanges owed(StreamKey stream, int receiver) {
        NodeResult origin = byNode.get(stream.origin());
        boolean owes = origin != null && stream.origin() != receiver
                && members.getOrDefault(stream.group(), new TreeSet<>()).contains(receiver)
                && members.get(stream.group()).contains(stream.origin());
        return owes ? origin.sent().getOrDefault(stream.group(), new SeqnoRanges()) : new SeqnoRanges();
    }

    private static List<Violation> samples(StreamKey stream, List<Long> seqnos, int receiver, String detail) {
        List<Violation> out = new ArrayList<>();
        seqnos.forEach(s -> out.add(new Violation(stream.origin(), stream.group(), s, receiver, detail)));
        return out;
    }

    private long[] row(int node) {
        return rows.computeIfAbsent(node, k -> new long[Col.values().length]);
    }

    private ClusterSummary.Totals totals() {
        long missing = violations.get("missing").count();
        long self = 0;
        long overflowed = 0;
        long sendErrors = 0;
        double seconds = 0;
        for (NodeResult r : byNode.values()) {
            self += r.deliveries().selfDeliveries();
            overflowed += r.overflowed();
            sendErrors += r.sendErrors();
            seconds = Math.max(seconds, r.sendSeconds());
        }
        return new ClusterSummary.Totals(sent, expected, delivered, missing, violations.get("duplicates").count(),
                violations.get("corrupt").count(), violations.get("unexpected").count(),
                violations.get("lost").count(), self, overflowed, sendErrors, seconds);
    }

    private SortedMap<String, Long> daemonTotals() {
        SortedMap<String, Long> totals = new TreeMap<>();
        byNode.values().forEach(r -> StatsDigest.deltas(r.statsBefore(), r.statsAfter())
                .forEach((k, v) -> totals.merge(k, v, Long::sum)));
        return totals;
    }

    private LatencyStats.Summary endToEnd() {
        LatencyHistogram all = new LatencyHistogram();
        byNode.values().forEach(r -> all.add(r.deliveries().latency()));
        return all.summary();
    }

    /**
     * Each daemon latency over all nodes: exact from the merged histograms when every node that recorded some
     * sent its histogram, else combined from the summaries. With both LEC and NAK exact, also their union as
     * {@value #RECOVERY}: every recovery, as the simulator's recovery latency counts them.
     */
    private SortedMap<String, LatencyBlend> daemonLatencies() {
        SortedMap<String, LatencyBlend> out = new TreeMap<>();
        SortedMap<String, LatencyHistogram> merged = new TreeMap<>();
        Set<String> incomplete = new TreeSet<>();
        for (NodeResult r : byNode.values()) {
            SortedMap<String, LatencyHistogram> histograms = StatsDigest.histograms(r.statsAfter());
            StatsDigest.latencies(r.statsAfter()).forEach((k, summary) -> {
                out.compute(k, (key, old) -> (old == null ? LatencyBlend.EMPTY : old).add(summary));
                LatencyHistogram h = histograms.get(k);
                if (h == null) {
                    if (summary.count() > 0) {
                        incomplete.add(k);
                    }
                } else {
                    merged.computeIfAbsent(k, key -> new LatencyHistogram()).add(h);
                }
            });
        }
        merged.forEach((k, h) -> {
            if (!incomplete.contains(k)) {
                out.put(k, LatencyBlend.exact(h.summary()));
            }
        });
        if (out.containsKey(LEC) && out.get(LEC).exact() && out.containsKey(NAK) && out.get(NAK).exact()) {
            LatencyHistogram both = new LatencyHistogram();
            both.add(merged.get(LEC));
            both.add(merged.get(NAK));
            out.put(RECOVERY, LatencyBlend.exact(both.summary()));
        }
        return out;
    }

    private static SortedMap<String, Long> kernelTotals(Map<String, Map<String, Long>> kernel) {
        SortedMap<String, Long> totals = new TreeMap<>();
        kernel.values().forEach(counters -> counters.forEach((k, v) -> totals.merge(k, v, Long::sum)));
        return totals;
    }

    private List<ClusterSummary.NodeRow> nodeRows(Map<String, Map<String, Long>> kernel) {
        List<ClusterSummary.NodeRow> out = new ArrayList<>();
        rows.forEach((node, c) -> {
            NodeResult r = byNode.get(node);
            Map<String, Long> d = r == null ? Map.of() : StatsDigest.deltas(r.statsBefore(), r.statsAfter());
            Map<String, Long> k = kernel.getOrDefault(String.valueOf(node), Map.of());
            out.add(new ClusterSummary.NodeRow(node, c[Col.SENT.ordinal()], c[Col.EXPECTED.ordinal()],
                    c[Col.DELIVERED.ordinal()], c[Col.MISSING.ordinal()], c[Col.DUPLICATES.ordinal()],
                    c[Col.LOST.ordinal()], d.getOrDefault(StatsDigest.INJECTED_DROPS, 0L),
                    d.getOrDefault(StatsDigest.RECOVERED_BY_LEC, 0L),
                    d.getOrDefault(StatsDigest.RECOVERED_BY_NAK, 0L),
                    d.getOrDefault(StatsDigest.RX_BUFFER_DROPS, 0L), k.getOrDefault("RcvbufErrors", 0L),
                    k.getOrDefault("nftDrops", 0L)));
        });
        return out;
    }

    /** Per-node tallies of the check. */
    private enum Col { SENT, EXPECTED, DELIVERED, MISSING, DUPLICATES, LOST }
}
