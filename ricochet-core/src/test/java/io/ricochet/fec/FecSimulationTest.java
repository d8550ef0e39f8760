package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.nak.NakCounter;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sender-based FEC in the simulator on the paper's workload at small size: 16 nodes, groups of 8, 1000 packets/s
 * arriving per node, 1 KB payloads, 2 s measured. Assertions are on delivered sets, counters and simulated
 * latencies, never on wall time.
 */
class FecSimulationTest {
    static SimResult run(FecConfig fec, int degree, String loss, long seed) {
        SimConfig config = new SimConfig(16, degree, 8, new FecProtocol(fec),
                LossSpec.parse(loss), LossScope.DATA, 2, 1, 1000, 1024, 50_000, seed);
        return new Simulator(config).run(null);
    }

    private static long counter(SimResult r, Counter counter) {
        return r.counters().getOrDefault(counter, 0L);
    }

    /** Every detected loss ended: rebuilt, retransmitted, arrived late or given up (nothing is pending at the end). */
    private static void assertLedgerBalanced(SimResult r) {
        assertEquals(counter(r, EngineCounter.LOSSES_DETECTED), counter(r, FecCounter.FEC_RECOVERED)
                + counter(r, EngineCounter.RECOVERED_BY_NAK) + counter(r, EngineCounter.LATE_ARRIVALS)
                + counter(r, EngineCounter.UNRECOVERED));
        assertEquals(r.losses(), r.lecRecovered() + r.nakRecovered() + r.lateArrivals() + r.unrecovered());
    }

    @ParameterizedTest
    @ValueSource(strings = {"uniform:0.01", "bursty:0.01:10"})
    void shouldDeliverEveryMessageWithNakOn(String loss) {
        SimResult r = run(FecConfig.builder().build(), 8, loss, 11);
        assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
        assertTrue(r.losses() > 100, "the run must lose packets to test anything: " + r.losses());
        assertEquals(0, r.unrecovered(), loss);
        assertTrue(r.lecRecovered() > 0.9 * r.losses(), "FEC does most of the work: " + r.lecRecoveryPercent() + "%");
        assertLedgerBalanced(r);
    }

    @Test
    void shouldFallBackToNakWhenABurstOutrunsTheCode() {
        SimResult r = run(FecConfig.builder().c(1).build(), 8, "bursty:0.05:10", 3);
        assertTrue(r.verified());
        assertTrue(counter(r, FecCounter.FEC_BLOCKS_UNRECOVERABLE) > 0, "XOR parity repairs one loss a block");
        assertTrue(r.nakRecovered() > 0, "NAK recovered " + r.nakRecovered());
        assertEquals(0, r.unrecovered(), "FEC + NAK deliver everything");
        assertLedgerBalanced(r);
    }

    @Test
    void shouldRecoverMostLossesByFecAloneWithNakOff() {
        SimResult r = run(FecConfig.builder().nakEnabled(false).build(), 8, "uniform:0.01", 5);
        assertTrue(r.verified());
        assertTrue(r.losses() > 100);
        assertEquals(0, r.nakRecovered());
        assertEquals(0, counter(r, NakCounter.NAKS_SENT));
        assertTrue(r.lecRecoveryPercent() > 95, "FEC recovery " + r.lecRecoveryPercent() + "%");
        assertLedgerBalanced(r);
    }

    @Test
    void shouldSendCRepairsPerBlockAndFlushPartialBlocks() {
        FecConfig fec = FecConfig.builder().r(8).c(3).build();
        SimResult r = run(fec, 8, "uniform:0.01", 7);
        long blocks = counter(r, FecCounter.FEC_BLOCKS_SENT);
        assertEquals(3 * blocks, counter(r, FecCounter.FEC_REPAIRS_SENT));
        assertEquals(3 * counter(r, EngineCounter.DATA_SENT), counter(r, FecCounter.FEC_ENCODE_MULADDS));
        assertTrue(counter(r, FecCounter.FEC_BLOCKS_FLUSHED) > 0, "at ~18 packets/s per group, blocks time out");
        assertTrue(blocks >= counter(r, EngineCounter.DATA_SENT) / 8, "every packet is in some block");
        assertFalse(r.counters().containsKey(LecCounter.REPAIRS_SENT), "LEC's counters are not FEC's");
    }

    /**
     * The paper's point (section 3.1): a sender can send a block's repairs only after r packets to that group, so
     * FEC recovery latency grows as each group's rate falls, here by spreading the same total rate over 16 times as
     * many groups per node. The flush timeout bounds the wait; with a long one the growth is plain.
     */
    @Test
    void shouldRecoverLaterAsThePerGroupRateFalls() {
        for (long flushMs : new long[] {50, 1000}) {
            FecConfig fec = FecConfig.builder().nakEnabled(false).flushTimeoutNs(flushMs * 1_000_000L)
                    .giveUpNs(3_000_000_000L).build();
            SimResult fewGroups = run(fec, 2, "uniform:0.01", 1);
            SimResult manyGroups = run(fec, 32, "uniform:0.01", 1);
            double few = fewGroups.lecRecoveryLatencyMs().mean();
            double many = manyGroups.lecRecoveryLatencyMs().mean();
            assertTrue(fewGroups.lecRecovered() > 100 && manyGroups.lecRecovered() > 100);
            assertTrue(many > few, "flush " + flushMs + " ms: mean FEC recovery latency d=32 " + many
                    + " ms, d=2 " + few + " ms");
        }
    }

    @Test
    void shouldGiveTheSameNumbersForTheSameSeed() {
        FecConfig fec = FecConfig.builder().c(2).build();
        assertEquals(run(fec, 8, "markov:0.02:5", 9), run(fec, 8, "markov:0.02:5", 9));
    }
}
