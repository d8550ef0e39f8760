package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.region.RegionPlanner;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whole-protocol runs of QSM in the simulator: 16 nodes in groups of 8 (split into two partitions of 4 by the default
 * partition size 5, unless a test keeps them flat), 1000 packets/s arriving per node, 2 s measured plus 1 s of drain
 * traffic, 50 µs per hop. Assertions are on delivered sets and counters, never on wall time; every run ends with
 * every ring parked and no timer left.
 */
class QsmSimulationTest {
    private static SimConfig config(int degree, String loss, LossScope scope, long seed) {
        return config(degree, 8, 5, loss, scope, seed);
    }

    private static SimConfig config(int degree, int groupSize, int partitionSize, String loss, LossScope scope,
                                    long seed) {
        QsmConfig qsm = QsmConfig.builder().maxPayload(512).partitionSize(partitionSize).build();
        return new SimConfig(16, degree, groupSize, new QsmProtocol(qsm), LossSpec.parse(loss), scope, 2, 1, 1000, 512,
                50_000, seed);
    }

    private static SimResult run(SimConfig config) {
        return run(new Simulator(config), config);
    }

    private static SimResult run(Simulator simulator, SimConfig config) {
        SimResult result = simulator.run(null);
        for (int node = 0; node < config.nodes(); node++) {
            QsmEngine engine = (QsmEngine) simulator.engine(node);
            assertEquals(Long.MAX_VALUE, engine.nextDeadlineNs(), "node " + node + " still busy");
            assertEquals(0, engine.pendingLosses(), "node " + node);
            assertEquals(0L, engine.bufferUsage().get("sendBufferPackets"),
                    "node " + node + ": the collective acknowledgement released every sent packet");
        }
        return result;
    }

    private static void assertEveryMessageDeliveredOnce(SimResult r) {
        String where = r.parameters() + " " + r.counters();
        assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
        assertTrue(r.losses() > 100, "the run must lose packets to test anything: " + r.losses());
        assertEquals(0, r.unrecovered(), where);
        assertEquals(r.losses(), r.nakRecovered(), "every loss recovered by a forward: " + where);
        Map<Counter, Long> c = r.counters();
        assertEquals(c.get(EngineCounter.LOSSES_DETECTED), c.get(EngineCounter.RECOVERED_BY_NAK)
                + c.get(EngineCounter.LATE_ARRIVALS) + c.get(EngineCounter.UNRECOVERED), where);
        assertEquals(0, c.get(EngineCounter.INVALID_PACKETS), where);
        assertEquals(c.get(EngineCounter.DATA_RECEIVED) + c.get(EngineCounter.RECOVERED_BY_NAK),
                c.get(EngineCounter.DELIVERED), "each packet delivered once, first copy or forward: " + where);
    }

    @Test
    void shouldDeliverEveryMessageExactlyOnceUnderFivePercentLoss() {
        SimResult r = run(config(4, "uniform:0.05", LossScope.DATA, 1));
        assertEveryMessageDeliveredOnce(r);
        Map<Counter, Long> c = r.counters();
        assertTrue(c.get(QsmCounter.QSM_REPAIRS_SENT) > c.get(QsmCounter.QSM_REPAIRS_FROM_ORIGIN) * 2,
                "most forwards come from peers, not the sender: " + c);
        assertTrue(c.get(QsmCounter.QSM_LOSSES_FROM_TOKEN) > 0, "some tails are found by the token");
        assertTrue(c.get(QsmCounter.QSM_BUFFER_RELEASED) > 0);
    }

    @Test
    void shouldDeliverEveryMessageUnderBurstyLoss() {
        assertEveryMessageDeliveredOnce(run(config(4, "bursty:0.02:10", LossScope.DATA, 2)));
    }

    @Test
    void shouldDeliverEveryMessageWhenTokensAndForwardsAreLostToo() {
        SimResult r = run(config(4, "uniform:0.05", LossScope.ALL, 3));
        assertEveryMessageDeliveredOnce(r);
        assertTrue(r.counters().get(QsmCounter.QSM_TOKENS_REGENERATED) > 0, "lost tokens were made anew");
    }

    @Test
    void shouldDeliverEveryMessageExactlyOnceInOneFlatRingPerGroup() {
        SimResult r = run(config(4, 8, 16, "uniform:0.05", LossScope.ALL, 7)); // no group exceeds 16
        assertEveryMessageDeliveredOnce(r);
        Map<Counter, Long> c = r.counters();
        assertEquals(0, c.get(QsmCounter.QSM_RECORDS_ESCALATED), "no partitions, no leaders' ring: " + c);
        assertEquals(0, c.get(QsmCounter.QSM_REPAIRS_ACROSS), c.toString());
    }

    @Test
    void shouldRecoverAcrossFourPartitionsOfAGroupOfSixteen() {
        SimResult r = run(config(2, 16, 4, "bursty:0.05:5", LossScope.ALL, 8));
        assertEveryMessageDeliveredOnce(r);
        Map<Counter, Long> c = r.counters();
        assertTrue(c.get(QsmCounter.QSM_RECORDS_ESCALATED) > 0, "whole partitions lacked packets: " + c);
        assertTrue(c.get(QsmCounter.QSM_REPAIRS_ACROSS) > 0, "leaders pushed packets across: " + c);
        assertTrue(c.get(QsmCounter.QSM_REPAIRS_SENT) > c.get(QsmCounter.QSM_REPAIRS_FROM_ORIGIN) * 2,
                "most forwards come from peers, not the sender: " + c);
    }

    @Test
    void shouldDeliverEveryMessageExactlyOnceWithPartitionsAlongTheGmsRegions() {
        // 16 nodes each in 2 groups of 8, partitions of at most 4, regions planned with a minimum size of 2.
        SimConfig config = config(2, 8, 4, "uniform:0.05", LossScope.ALL, 9);
        SimResult r = run(new Simulator(config).regions(new RegionPlanner(2)), config);
        assertEveryMessageDeliveredOnce(r);
        SimResult same = run(new Simulator(config).regions(new RegionPlanner(2)), config);
        assertEquals(r.counters(), same.counters(), "deterministic with regions too");
        assertTrue(!r.counters().equals(run(config).counters()), "the regions changed the rings");
    }

    @Test
    void shouldNeverRegenerateATokenWhenNoPacketIsLost() {
        SimResult r = run(config(4, "none", LossScope.ALL, 4));
        Map<Counter, Long> c = r.counters();
        assertTrue(c.get(QsmCounter.QSM_TOKENS_PARKED) > 10, "rings parked and woke many times: " + c);
        assertEquals(0, c.get(QsmCounter.QSM_TOKENS_REGENERATED), "a token is made anew only when one is lost: " + c);
        assertEquals(0, c.get(QsmCounter.QSM_TOKENS_SUPERSEDED), c.toString());
    }

    /**
     * With data lost but no token lost, the only token made anew is one whose parked leader missed every packet
     * that should have woken it (and whose sender then saw no token for its timeout): at 1 % loss, a small fraction
     * of the wake-ups.
     */
    @Test
    void shouldRegenerateTokensOnlyForLeadersThatMissedTheWakeUpWhenOnlyDataIsLost() {
        SimResult r = run(config(4, "uniform:0.01", LossScope.DATA, 6));
        Map<Counter, Long> c = r.counters();
        assertTrue(c.get(QsmCounter.QSM_TOKENS_REGENERATED) * 20 < c.get(QsmCounter.QSM_TOKENS_PARKED),
                "regenerations " + c.get(QsmCounter.QSM_TOKENS_REGENERATED) + " of " + c);
    }

    @Test
    void shouldGiveTheSameResultForTheSameSeed() {
        assertEquals(run(config(4, "markov:0.02:5", LossScope.ALL, 5)),
                run(config(4, "markov:0.02:5", LossScope.ALL, 5)));
    }
}
