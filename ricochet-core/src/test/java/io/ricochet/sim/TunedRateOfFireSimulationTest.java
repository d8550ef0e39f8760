package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.cli.ResultJson;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetEngine;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rate-of-fire tuning (issue 36) in whole runs: on, it moves c with the loss and still delivers every packet intact
 * once; off, the run is exactly the run without it.
 */
class TunedRateOfFireSimulationTest {
    private static final String QUIET_THEN_LOSSY = "phases:8@uniform:0.001;8@uniform:0.05";

    private static Simulator simulator(TuningSettings tuning, String loss, long seed) {
        return simulator(tuning, loss, 16, seed);
    }

    private static Simulator simulator(TuningSettings tuning, String loss, double seconds, long seed) {
        RicochetConfig engine = RicochetConfig.builder().tuning(tuning).build();
        return new Simulator(new SimConfig(16, 12, 8, new RicochetProtocol(engine), LossSpec.parse(loss),
                LossScope.DATA, seconds, 1, 1000, 512, 50_000, seed));
    }

    @Test
    void shouldLeaveARunUnchangedWithTuningOff() {
        SimResult plain = new Simulator(new SimConfig(16, 12, 8, new RicochetProtocol(RicochetConfig.builder()
                .build()), LossSpec.parse("uniform:0.02"), LossScope.DATA, 2, 1, 1000, 512, 50_000, 3)).run(null);
        SimResult off = simulator(TuningSettings.OFF, "uniform:0.02", 2, 3).run(null);
        assertEquals(ResultJson.toJson(plain), ResultJson.toJson(off));
    }

    @Test
    void shouldLowerCWhenQuietAndRaiseItWhenLossy() {
        Simulator quiet = simulator(TuningSettings.on(), "uniform:0.001", 5);
        SimResult q = quiet.run(null);
        Simulator lossy = simulator(TuningSettings.on(), QUIET_THEN_LOSSY, 5);
        SimResult l = lossy.run(null);
        for (SimResult r : List.of(q, l)) {
            assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
            assertEquals(r.losses(), r.lecRecovered() + r.nakRecovered() + r.lateArrivals() + r.unrecovered());
            assertEquals(0, r.unrecovered(), "NAK recovers what LEC leaves");
            long detected = r.counters().get(EngineCounter.LOSSES_DETECTED);
            assertEquals(detected, r.counters().get(LecCounter.RECOVERED_BY_XOR)
                    + r.counters().get(EngineCounter.RECOVERED_BY_NAK) + r.counters().get(EngineCounter.LATE_ARRIVALS)
                    + r.counters().get(EngineCounter.UNRECOVERED));
        }
        // Repairs per data packet, c / r, over every group at every node, against fixed (8, 5)'s 0.625.
        double quietMean = perPacket(quiet, 16).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double lossyMean = perPacket(lossy, 16).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        assertTrue(quietMean < 0.75 * 5 / 8, "at 0.1 % the repairs per packet came down: " + perPacket(quiet, 16));
        assertTrue(lossyMean > 5 / 8.0, "after 8 s at 5 % they went up: " + perPacket(lossy, 16));
        assertTrue(java.util.stream.IntStream.range(0, 16).allMatch(n -> engine(quiet, n).rateOfFireR() > 8),
                "at 0.1 % r went up at every node");
    }

    private static RicochetEngine engine(Simulator sim, int node) {
        return (RicochetEngine) sim.engine(node);
    }

    private static List<Double> perPacket(Simulator sim, int nodes) {
        return java.util.stream.IntStream.range(0, nodes).boxed()
                .flatMap(n -> engine(sim, n).tuning().stream()).map(g -> g.c() / g.r()).toList();
    }

    @Test
    void shouldBeDeterministic() {
        SimResult a = simulator(TuningSettings.on(), QUIET_THEN_LOSSY, 7).run(null);
        SimResult b = simulator(TuningSettings.on(), QUIET_THEN_LOSSY, 7).run(null);
        assertEquals(ResultJson.toJson(a), ResultJson.toJson(b));
    }
}
