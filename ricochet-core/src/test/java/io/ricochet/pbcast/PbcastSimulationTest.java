package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import io.ricochet.sim.Workload;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pbcast in the simulator at small size (16 nodes, d = 4, s = 8, 3 s of traffic plus drain), under each variant of
 * the paper: every measured message is delivered intact and once, or reported lost; every engine ends with nothing
 * missing, and every stream at every member is delivered or reported lost up to the sender's last message.
 */
class PbcastSimulationTest {
    /** The protocol variants of the paper's sections 3 and 4. */
    enum Variant {
        BASIC(false, false, false), IPMC(true, false, false), GRB(true, true, false), LOCAL(true, true, true);

        final boolean ipmc;
        final boolean grb;
        final boolean local;

        Variant(boolean ipmc, boolean grb, boolean local) {
            this.ipmc = ipmc;
            this.grb = grb;
            this.local = local;
        }

        PbcastConfig config() {
            return PbcastConfig.builder().ipmc(ipmc).grb(grb).local(local).neighbourhood(Neighbourhood.racks(4))
                    .build();
        }
    }

    private static SimConfig config(Variant variant, String loss, long seed) {
        return new SimConfig(16, 4, 8, new PbcastProtocol(variant.config()),
                LossSpec.parse(loss), LossScope.DATA, 3, 2, 1000, 256, 50_000, seed);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void shouldDeliverEveryMessageUnderUniformLoss(Variant variant) {
        Run run = Run.of(config(variant, "uniform:0.01", 21));
        run.assertComplete();
        assertEquals(0, run.result.unrecovered(), "1 % uniform loss: gossip recovers everything");
        assertEquals(run.result.losses(), run.result.nakRecovered());
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void shouldDeliverEveryMessageUnderBurstyLoss(Variant variant) {
        Run run = Run.of(config(variant, "bursty:0.01:10", 22));
        run.assertComplete();
        assertEquals(0, run.result.unrecovered(), "1 % loss in bursts of 10: gossip recovers everything");
    }

    @Test
    void shouldRecoverThroughLostDigestsRequestsAndRetransmissions() {
        SimConfig all = new SimConfig(16, 4, 8, new PbcastProtocol(),
                LossSpec.parse("uniform:0.02"), LossScope.ALL, 3, 2, 1000, 256, 50_000, 23);
        Run run = Run.of(all);
        run.assertComplete();
        assertEquals(0, run.result.unrecovered(), "a lost solicitation or retransmission is retried next round");
        Map<Counter, Long> c = run.result.counters();
        assertTrue(c.get(PbcastCounter.PBCAST_DIGESTS_RECEIVED) < c.get(PbcastCounter.PBCAST_DIGESTS_SENT));
        assertTrue(c.get(EngineCounter.RETRANSMITS_RECEIVED) < c.get(PbcastCounter.PBCAST_RETRANSMITS_SENT));
    }

    @Test
    void shouldReportLostWhatAgesOutBeforeGossipRecoversIt() {
        PbcastConfig hurried = PbcastConfig.builder().stableThreshold(1).limitRequests(1).build();
        SimConfig config = new SimConfig(16, 4, 8, new PbcastProtocol(hurried),
                LossSpec.parse("bursty:0.05:10"), LossScope.DATA, 3, 2, 1000, 256, 50_000, 24);
        Run run = Run.of(config);
        run.assertAccounted();
        assertTrue(run.result.unrecovered() > 0, "one round and one request per round cannot keep up");
        assertTrue(run.undiscoveredTail() < run.result.counters().get(EngineCounter.UNRECOVERED),
                "beside those reported lost, only a few last messages went unnoticed: " + run.undiscoveredTail());
        assertTrue(run.result.nakRecovered() > 0);
    }

    @Test
    void shouldGiveTheSameRunForTheSameSeed() {
        SimResult a = Run.of(config(Variant.LOCAL, "markov:0.02:4", 25)).result;
        SimResult b = Run.of(config(Variant.LOCAL, "markov:0.02:4", 25)).result;
        assertEquals(a, b);
    }

    @Test
    void shouldMulticastRetransmissionsOnlyWithAnOptimization() {
        SimResult basic = Run.of(config(Variant.BASIC, "uniform:0.02", 26)).result;
        SimResult ipmc = Run.of(config(Variant.IPMC, "uniform:0.02", 26)).result;
        assertEquals(0, basic.counters().get(PbcastCounter.PBCAST_IPMC_RETRANSMITS));
        assertTrue(ipmc.counters().get(PbcastCounter.PBCAST_IPMC_RETRANSMITS) > 0);
        assertEquals(basic.losses(), ipmc.losses(), "the same drops: loss is injected at the receivers");
    }

    /** A finished run with its simulator, for per-engine checks. */
    record Run(Simulator sim, SimResult result, SimConfig config) {
        static Run of(SimConfig config) {
            Simulator sim = new Simulator(config);
            return new Run(sim, sim.run(null), config);
        }

        /** Everything is accounted for, and every message was delivered or reported lost. */
        void assertComplete() {
            assertAccounted();
            assertEquals(0, undiscoveredTail(), "every stream delivered or reported lost up to its last message");
        }

        /**
         * Payloads intact, no duplicates, every detected loss recovered or reported lost, nothing still sought,
         * nothing left in a buffer; only the last messages of a stream that a node never heard of may remain.
         */
        void assertAccounted() {
            SimResult r = result;
            Map<Counter, Long> c = r.counters();
            String figures = "losses " + r.losses() + " recovered " + r.nakRecovered() + " unrecovered "
                    + r.unrecovered() + " counters " + c;
            assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
            assertTrue(r.losses() > 100, "the run must lose messages to test anything: " + figures);
            assertEquals(r.losses(), r.nakRecovered() + r.lateArrivals() + r.unrecovered(), figures);
            assertEquals(c.get(EngineCounter.LOSSES_DETECTED), c.get(EngineCounter.RECOVERED_BY_NAK)
                    + c.get(EngineCounter.LATE_ARRIVALS) + c.get(EngineCounter.UNRECOVERED), figures);
            assertTrue(r.unrecovered() <= c.get(EngineCounter.UNRECOVERED), "unrecovered ones are reported lost");
            assertEquals(0, c.get(EngineCounter.INVALID_PACKETS));
            assertEquals(0, c.get(PbcastCounter.PBCAST_BUFFER_EVICTIONS));
            for (int node = 0; node < sim.workload().nodes(); node++) {
                PbcastEngine engine = (PbcastEngine) sim.engine(node);
                assertEquals(0, engine.missingMessages(), "node " + node + " still seeks messages");
                assertEquals(0, engine.bufferedMessages(), "node " + node + " kept messages past the GC");
            }
        }

        /**
         * Messages that some member neither delivered nor reported lost: per member and stream, those after the
         * last one it delivered or gave up. Only a message it never heard of (lost, and the last of its stream)
         * can be there.
         */
        long undiscoveredTail() {
            Workload w = sim.workload();
            long tail = 0;
            for (int node = 0; node < w.nodes(); node++) {
                PbcastEngine engine = (PbcastEngine) sim.engine(node);
                for (int group : w.groupsOfNode()[node]) {
                    for (int sender : w.membersOfGroup()[group]) {
                        if (sender != node) {
                            long sent = ((PbcastEngine) sim.engine(sender)).sentTo(group);
                            tail += sent - Math.max(0, engine.deliveredThrough(sender, group));
                        }
                    }
                }
            }
            return tail;
        }
    }
}
