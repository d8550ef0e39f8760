package io.ricochet.workload;

import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.latency.LatencyStats;
import io.ricochet.lec.LecCounter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExactlyOnceCheckTest {
    /** Group 1 = {1, 2, 3}, group 2 = {2, 3}. */
    private static final Map<Integer, Set<Integer>> MEMBERS = Map.of(1, Set.of(1, 2, 3), 2, Set.of(2, 3));

    @Test
    void shouldPassWhenEveryOtherMemberGotEveryPacketOnce() {
        ClusterSummary s = check(
                Results.node(1, 1).sent(1, 0, 9).build(),
                Results.node(2, 1, 2).sent(2, 0, 4).got(1, 1, 0, 9).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 9).got(2, 2, 0, 4).build());

        assertEquals(ClusterSummary.EXACTLY_ONCE, s.verdict());
        assertEquals(15, s.totals().sent());
        assertEquals(25, s.totals().expected());
        assertEquals(25, s.totals().delivered());
        assertEquals(0, s.totals().missing());
        assertEquals(25, s.endToEnd().count());
        assertEquals(0.5, s.endToEnd().max());
    }

    @Test
    void shouldCountAndShowMissingPackets() {
        ClusterSummary s = check(
                Results.node(1, 1).sent(1, 0, 9).build(),
                Results.node(2, 1, 2).got(1, 1, 0, 9).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 6).got(1, 1, 9, 9).build());

        assertEquals(ClusterSummary.VIOLATIONS, s.verdict());
        assertEquals(2, s.totals().missing());
        assertEquals(List.of(new Violation(1, 1, 7, 3, ""), new Violation(1, 1, 8, 3, "")),
                s.violations().get("missing").first());
        ClusterSummary.NodeRow three = s.perNode().get(2);
        assertEquals(3, three.node());
        assertEquals(10, three.expected());
        assertEquals(8, three.delivered());
        assertEquals(2, three.missing());
    }

    @Test
    void shouldFlagDuplicatesCorruptionLostNoticesAndUnexpectedPackets() {
        ClusterSummary s = check(
                Results.node(1, 1).sent(1, 0, 2).build(),
                Results.node(2, 1, 2).got(1, 1, 0, 2).got(1, 1, 1, 1).got(1, 1, 50, 50).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 0).gotCorrupt(1, 1, 1).lost(1, 1, 2).got(1, 2, 0, 0).build());

        assertEquals(ClusterSummary.VIOLATIONS, s.verdict());
        assertEquals(1, s.totals().duplicates());
        assertEquals(1, s.totals().corrupt());
        assertEquals(1, s.totals().lostNotices());
        assertEquals(1, s.totals().missing(), "the lost packet never arrived");
        assertEquals(2, s.totals().unexpected(), "seqno 50 was never sent; node 1 is not in group 2");
        assertEquals(List.of(new Violation(1, 1, 50, 2, "not sent to this node"),
                new Violation(1, 2, 0, 3, "not sent to this node")), s.violations().get("unexpected").first());
        assertTrue(s.violations().get("corrupt").first().get(0).detail().startsWith("pattern mismatch"));
    }

    @Test
    void shouldCountEverythingOwedToANodeWithoutAResultAsMissing() {
        ClusterSummary s = check(
                Results.node(1, 1).sent(1, 0, 9).build(),
                Results.node(2, 1, 2).got(1, 1, 0, 9).build());

        assertEquals(ClusterSummary.VIOLATIONS, s.verdict());
        assertEquals(List.of(3), s.nodesWithoutResult());
        assertEquals(10, s.totals().missing());
    }

    @Test
    void shouldTakeMembershipFromTheResultsWithoutAPlan() {
        ClusterSummary s = ExactlyOnceCheck.check(null, List.of(
                Results.node(1, 7).sent(7, 0, 3).build(),
                Results.node(2, 7).got(1, 7, 0, 3).build()), Map.of());

        assertEquals(ClusterSummary.EXACTLY_ONCE, s.verdict());
        assertEquals(Set.of(1, 2), s.groups().get(7));
    }

    @Test
    void shouldNotPassWhenNothingWasSent() {
        assertEquals(ClusterSummary.NOTHING_CHECKED, check(Results.node(1, 1).build()).verdict());
    }

    @Test
    void shouldSumDaemonCounterChangesAndKernelCounters() {
        Map<String, Object> before = Map.of("counters", Map.of("RECOVERED_BY_XOR", 5, "RECOVERED_BY_NAK", 1,
                "INJECTED_DROPS", 10));
        Map<String, Object> after = Map.of("counters", Map.of("RECOVERED_BY_XOR", 25, "RECOVERED_BY_NAK", 3,
                "INJECTED_DROPS", 32), "daemon", Map.of("lecRecoveryLatencyMs",
                        Map.of("count", 20, "mean", 2.0, "p50", 1.0, "p99", 9.0, "max", 12.0)));
        ClusterSummary s = ExactlyOnceCheck.check(MEMBERS, List.of(
                Results.node(1, 1).sent(1, 0, 0).stats(before, after).build(),
                Results.node(2, 1, 2).got(1, 1, 0, 0).stats(before, after).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 0).build()),
                Map.of("2", Map.of("RcvbufErrors", 4L), "svc", Map.of("RcvbufErrors", 1L)));

        assertEquals(40, s.daemon(LecCounter.RECOVERED_BY_XOR));
        assertEquals(4, s.daemon(EngineCounter.RECOVERED_BY_NAK));
        assertEquals(44, s.daemon(DaemonCounter.INJECTED_DROPS));
        assertEquals(5, s.kernelTotals().get("RcvbufErrors"));
        assertEquals(4, s.perNode().get(1).rcvbufErrors());
        assertEquals(20, s.perNode().get(1).lec());
        assertEquals(new LatencyBlend(40, 2.0, 1.0, 9.0, 12.0, false),
                s.daemonLatencies().get("lecRecoveryLatencyMs"));
        assertFalse(s.daemonLatencies().containsKey("recoveryLatencyMs"), "no histograms: no exact union");
    }

    @Test
    void shouldMergeTheDaemonsHistogramsIntoExactPercentiles() {
        // Node 1 recovered 90 losses by LEC at 1 ms and 10 by NAK at 100 ms; node 2 10 by LEC at 50 ms.
        LatencyStats lec1 = stats(90, 1_000);
        LatencyStats nak1 = stats(10, 100_000);
        LatencyStats lec2 = stats(10, 50_000);
        LatencyStats none = new LatencyStats();
        ClusterSummary s = ExactlyOnceCheck.check(MEMBERS, List.of(
                Results.node(1, 1).sent(1, 0, 0).stats(Map.of(), daemonStats(lec1, nak1)).build(),
                Results.node(2, 1, 2).got(1, 1, 0, 0).stats(Map.of(), daemonStats(lec2, none)).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 0).build()), Map.of());

        LatencyBlend lec = s.daemonLatencies().get("lecRecoveryLatencyMs");
        assertTrue(lec.exact());
        assertEquals(100, lec.count());
        assertEquals(1.0, lec.p50(), "the median of all 100, not the count-weighted 5.9 of the nodes' medians");
        assertEquals(50.0, lec.p99(), 0.05);
        assertEquals(5.9, lec.mean(), 0.01);
        LatencyBlend all = s.daemonLatencies().get("recoveryLatencyMs");
        assertTrue(all.exact());
        assertEquals(110, all.count());
        assertEquals(100.0, all.max(), 0.1);
        assertEquals(1.0, all.p50(), "90 of the 110 recoveries took 1 ms");
    }

    @Test
    void shouldFallBackToSummariesWhenANodeSendsNoHistogram() {
        Map<String, Object> old = Map.of("daemon", Map.of("lecRecoveryLatencyMs",
                Map.of("count", 10, "mean", 50.0, "p50", 50.0, "p99", 50.0, "max", 50.0)));
        ClusterSummary s = ExactlyOnceCheck.check(MEMBERS, List.of(
                Results.node(1, 1).sent(1, 0, 0).stats(Map.of(), daemonStats(stats(90, 1_000), stats(0, 0)))
                        .build(),
                Results.node(2, 1, 2).got(1, 1, 0, 0).stats(Map.of(), old).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 0).build()), Map.of());

        LatencyBlend lec = s.daemonLatencies().get("lecRecoveryLatencyMs");
        assertFalse(lec.exact());
        assertEquals(new LatencyBlend(100, 5.9, 5.9, 50.0, 50.0, false), lec);
        assertFalse(s.daemonLatencies().containsKey("recoveryLatencyMs"));
    }

    /** {@code n} recordings of {@code micros} each. */
    private static LatencyStats stats(int n, long micros) {
        LatencyStats l = new LatencyStats();
        for (int i = 0; i < n; i++) {
            l.recordNs(micros * 1000);
        }
        return l;
    }

    /** A daemon's stats as {@code ricochet stats --json} gives them: summaries and their histograms. */
    private static Map<String, Object> daemonStats(LatencyStats lec, LatencyStats nak) {
        return Map.of("daemon", Map.of(
                "lecRecoveryLatencyMs", summary(lec), "nakRecoveryLatencyMs", summary(nak),
                "latencyHistograms", Map.of("lecRecoveryLatencyMs", lec.encode(),
                        "nakRecoveryLatencyMs", nak.encode())));
    }

    private static Map<String, Object> summary(LatencyStats l) {
        LatencyStats.Summary s = l.summary();
        return Map.of("count", s.count(), "mean", s.mean(), "p50", s.p50(), "p99", s.p99(), "max", s.max());
    }

    @Test
    void shouldRefuseTwoResultsForOneNode() {
        assertThrows(IllegalArgumentException.class, () -> check(Results.node(1, 1).build(),
                Results.node(1, 1).build()));
    }

    @Test
    void shouldRenderATableAndJsonThatAgree() {
        ClusterSummary s = check(
                Results.node(1, 1).sent(1, 0, 9).build(),
                Results.node(2, 1, 2).got(1, 1, 0, 9).build(),
                Results.node(3, 1, 2).got(1, 1, 0, 8).build());

        String table = SummaryReport.table(s);
        var json = SummaryReport.toJson(s);

        assertTrue(table.contains("missing / duplicates   1 / 0"), table);
        assertTrue(table.matches("(?s).*\n  missing +origin 1 group 1 seqno 9 at node 3\n.*"), table);
        assertEquals(1, json.get("totals").get("missing").asLong());
        assertEquals(9, json.get("violations").get("missing").get("first").get(0).get("seqno").asLong());
        assertEquals("VIOLATIONS", json.get("verdict").asText());
    }

    private static ClusterSummary check(NodeResult... results) {
        return ExactlyOnceCheck.check(MEMBERS, List.of(results), Map.of());
    }
}
