package io.ricochet.ipmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ipmc in the simulator (16 nodes, d = 4, s = 8, 2 s of traffic): every delivery intact and once, exactly the
 * packets that were not dropped delivered, nothing recovered, nothing reported lost, no frame but data sent.
 */
class IpmcSimulationTest {
    private static SimConfig config(String loss, long seed) {
        return new SimConfig(16, 4, 8, ProtocolChoice.IPMC.factory(RicochetConfig.builder().build(), 256),
                LossSpec.parse(loss), LossScope.DATA, 2, 1, 500, 256, 50_000, seed);
    }

    private static SimResult run(SimConfig config) {
        return new Simulator(config).run(null);
    }

    @Test
    void shouldDeliverWhatArrivesOnceAndRecoverNothing() {
        SimResult r = run(config("uniform:0.05", 31));
        Map<Counter, Long> c = r.counters();
        assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
        assertTrue(r.losses() > 100, "the run must lose packets: " + r.losses());
        assertEquals(0, r.lecRecovered() + r.nakRecovered() + r.lateArrivals(), "ipmc recovers nothing");
        assertEquals(0, c.get(EngineCounter.UNRECOVERED), "and reports no loss");
        assertEquals(0, c.get(EngineCounter.LOSSES_DETECTED));
        assertEquals(0, r.controlPerNodePerSecond(), "no frame but data");
        assertEquals(0, r.overheadPercent());
        assertEquals(c.get(EngineCounter.DATA_RECEIVED), c.get(EngineCounter.DELIVERED));
        assertEquals(0, c.get(EngineCounter.INVALID_PACKETS));
    }

    @Test
    void shouldDeliverEverythingWithoutLoss() {
        SimResult r = run(config("none", 32));
        assertTrue(r.verified());
        assertEquals(0, r.losses());
        assertTrue(r.counters().get(EngineCounter.DELIVERED) > 0);
    }

    @Test
    void shouldGiveTheSameRunForTheSameSeed() {
        assertEquals(run(config("bursty:0.02:5", 33)), run(config("bursty:0.02:5", 33)));
    }
}
