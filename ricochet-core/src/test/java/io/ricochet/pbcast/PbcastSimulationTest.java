package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.EngineConfig;
import io.ricochet.engine.RicochetCounter;
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
        return new SimConfig(16, 4, 8, EngineConfig.builder().build(), new PbcastProtocol(variant.config()),
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

    /** A finished run with its simulator, for per-engine checks. */
    record Run(Simulator sim, SimResult result, SimConfig config) {
        static Run of(SimConfig config) {
            Simulator sim = new Simulator(config);
            return new Run(sim, sim.run(null), config);
        }

        void assertComplete() {
            SimResult r = result;
            Map<RicochetCounter, Long> c = r.counters();
            String figures = "losses " + r.losses() + " recovered " + r.nakRecovered() + " unrecovered "
                    + r.unrecovered() + " counters " + c;
            assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
            assertTrue(r.losses() > 100, "the run must lose messages to test anything: " + figures);
            assertEquals(r.losses(), r.nakRecovered() + r.lateArrivals() + r.unrecovered(), figures);
            assertEquals(c.get(RicochetCounter.LOSSES_DETECTED), c.get(RicochetCounter.RECOVERED_BY_NAK)
                    + c.get(RicochetCounter.LATE_ARRIVALS) + c.get(RicochetCounter.UNRECOVERED), figures);
            assertTrue(r.unrecovered() <= c.get(RicochetCounter.UNRECOVERED), "unrecovered ones are reported lost");
            assertEquals(0, c.get(RicochetCounter.INVALID_PACKETS));
            assertEquals(0, c.get(RicochetCounter.PBCAST_BUFFER_EVICTIONS));
            assertEveryStreamResolved();
        }

        private void assertEveryStreamResolved() {
            Workload w = sim.workload();
            for (int node = 0; node < w.nodes(); node++) {
                PbcastEngine engine = (PbcastEngine) sim.engine(node);
                assertEquals(0, engine.missingMessages(), "node " + node + " still seeks messages");
                assertEquals(0, engine.bufferedMessages(), "node " + node + " kept messages past the GC");
                for (int group : w.groupsOfNode()[node]) {
                    for (int sender : w.membersOfGroup()[group]) {
                        if (sender == node) {
                            continue;
                        }
                        long sent = ((PbcastEngine) sim.engine(sender)).sentTo(group);
                        assertEquals(sent, engine.deliveredThrough(sender, group), "node " + node + ", stream ("
                                + sender + ", " + group + "): delivered or lost up to the last message sent");
                    }
                }
            }
        }
    }
}
