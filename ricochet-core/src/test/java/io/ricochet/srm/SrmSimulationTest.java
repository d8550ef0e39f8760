package io.ricochet.srm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whole-protocol runs of SRM in the simulator: 16 nodes in groups of 8, 1000 packets/s arriving per node, 2 s
 * measured plus 1 s of drain traffic, 50 µs per hop. Assertions are on delivered sets and counters, never on
 * wall time.
 */
class SrmSimulationTest {
    private static final SrmConfig SRM = SrmConfig.builder().build();

    private static SimConfig config(int degree, String loss, LossScope scope, long seed) {
        return new SimConfig(16, degree, 8, new SrmProtocol(SRM),
                LossSpec.parse(loss), scope, 2, 1, 1000, 512, 50_000, seed);
    }

    /** Runs to the end and checks that no engine is left with a timer (sessions go quiet, every loss ended). */
    private static SimResult run(SimConfig config) {
        Simulator simulator = new Simulator(config);
        SimResult result = simulator.run(null);
        for (int node = 0; node < config.nodes(); node++) {
            assertEquals(Long.MAX_VALUE, simulator.engine(node).nextDeadlineNs(), "node " + node + " still busy");
        }
        return result;
    }

    private static void assertEveryMessageDelivered(SimResult r) {
        String where = r.parameters() + " " + r.counters();
        assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
        assertTrue(r.losses() > 100, "the run must lose packets to test anything: " + r.losses());
        assertEquals(0, r.unrecovered(), where);
        assertEquals(r.losses(), r.nakRecovered(), "every loss recovered by a repair: " + where);
        Map<Counter, Long> c = r.counters();
        assertEquals(c.get(EngineCounter.LOSSES_DETECTED), c.get(EngineCounter.RECOVERED_BY_NAK)
                + c.get(EngineCounter.LATE_ARRIVALS) + c.get(EngineCounter.UNRECOVERED), where);
        assertEquals(0, c.get(EngineCounter.UNRECOVERED), where);
        assertEquals(0, c.get(EngineCounter.INVALID_PACKETS), where);
    }

    @Test
    void shouldDeliverEveryMessageUnderUniformLoss() {
        SimResult r = run(config(8, "uniform:0.01", LossScope.DATA, 1));
        assertEveryMessageDelivered(r);
        Map<Counter, Long> c = r.counters();
        assertTrue(c.get(SrmCounter.SRM_REQUESTS_SENT) > 0);
        assertTrue(c.get(SrmCounter.SRM_SESSIONS_SENT) > 0);
        assertTrue(c.get(SrmCounter.SRM_LOSSES_FROM_SESSIONS) > 0, "some tails are found by sessions");
        assertTrue(c.get(SrmCounter.SRM_REPAIRS_SUPPRESSED) > c.get(SrmCounter.SRM_REPAIRS_SENT),
                "most holders of a requested packet hear another's repair first: " + c);
    }

    @Test
    void shouldDeliverEveryMessageUnderBurstyLoss() {
        assertEveryMessageDelivered(run(config(8, "bursty:0.01:10", LossScope.DATA, 2)));
    }

    @Test
    void shouldDeliverEveryMessageWhenRequestsRepairsAndSessionsAreLostToo() {
        assertEveryMessageDelivered(run(config(8, "uniform:0.02", LossScope.ALL, 3)));
    }

    @Test
    void shouldGiveTheSameResultForTheSameSeed() {
        assertEquals(run(config(4, "markov:0.02:5", LossScope.ALL, 5)),
                run(config(4, "markov:0.02:5", LossScope.ALL, 5)));
    }

    /**
     * The paper's Figure 2: at a constant total rate, more groups per node means fewer packets per second per
     * (sender, group), so a gap (and the next packet that shows it) takes longer, and discovery slows.
     */
    @Test
    void shouldDiscoverLossesLaterAsGroupsPerNodeGrowAtAConstantRate() {
        SimResult two = run(config(2, "uniform:0.01", LossScope.DATA, 7));
        SimResult eight = run(config(8, "uniform:0.01", LossScope.DATA, 7));
        SimResult thirtyTwo = run(config(32, "uniform:0.01", LossScope.DATA, 7));
        for (SimResult r : new SimResult[] {two, eight, thirtyTwo}) {
            assertEveryMessageDelivered(r);
            assertEquals(r.losses(), r.discoveryLatencyMs().count(), "every loss discovered");
        }
        double d2 = two.discoveryLatencyMs().mean();
        double d8 = eight.discoveryLatencyMs().mean();
        double d32 = thirtyTwo.discoveryLatencyMs().mean();
        assertTrue(d2 < d8 && d8 < d32, "mean discovery latency at d = 2, 8, 32: " + d2 + ", " + d8 + ", " + d32
                + " ms");
    }
}
