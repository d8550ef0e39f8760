package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.pbcast.PbcastProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PerturbationTest {
    private static final int SLEEPER = 3;
    private static final long MS = 1_000_000L;

    /** One group of 8, 1000 arrivals/s per node, 2 s of traffic: a sleep of 250 ms sees about 250 arrivals. */
    private static SimConfig config(String loss) {
        return new SimConfig(8, 1, 8, new RicochetProtocol(RicochetConfig.builder().build()), LossSpec.parse(loss),
                LossScope.DATA, 2, 1, 1000, 256, 50_000, 7);
    }

    /** Every frame the sleeper's engine was handed, and when; every send it made. */
    private static final class Watch implements SimObserver {
        final List<Long> receivedBySleeper = new ArrayList<>();
        final List<Long> sentBySleeper = new ArrayList<>();
        long deliveredByOthers;

        @Override
        public void sent(int origin, int group, long seqno, long nowNs) {
            if (origin == SLEEPER) {
                sentBySleeper.add(nowNs);
            }
        }

        @Override
        public void received(int node, int type, long nowNs) {
            if (node == SLEEPER) {
                receivedBySleeper.add(nowNs);
            }
        }

        @Override
        public void delivered(int node, int origin, int group, long seqno, Delivery how, long nowNs) {
            if (node != SLEEPER) {
                deliveredByOthers++;
            }
        }
    }

    @Test
    void anAsleepNodeReceivesAndSendsNothingAndProcessesItsBacklogOnWaking() {
        Perturbation p = new Perturbation(SLEEPER, 0.25, 1000 * MS, 10_000);
        Watch watch = new Watch();
        Simulator sim = new Simulator(config("none"), p).observe(watch);
        SimResult result = sim.run(null);

        assertTrue(result.verified());
        assertFalse(watch.receivedBySleeper.isEmpty());
        watch.receivedBySleeper.forEach(t -> assertFalse(p.asleep(t), "received at " + t + " while asleep"));
        watch.sentBySleeper.forEach(t -> assertFalse(p.asleep(t), "sent at " + t + " while asleep"));
        PerturbationReport report = sim.perturbationReport();
        assertTrue(report.held() > 100, "frames waited: " + report.held());
        assertEquals(0, report.overflowed());
        assertTrue(report.sendsSkipped() > 0);
        // The backlog is processed at the instant of waking, the start of a period.
        long atWake = watch.receivedBySleeper.stream().filter(t -> t % (1000 * MS) == 0).count();
        assertEquals(report.held(), atWake);
        // With a buffer large enough and no loss, nothing is lost: the sleeper only delays.
        assertEquals(0, result.losses());
    }

    @Test
    void theBacklogIsBoundedAndTheRestAreLossesTheProtocolRecovers() {
        Perturbation p = new Perturbation(SLEEPER, 0.25, 1000 * MS, 20);
        Watch watch = new Watch();
        Simulator sim = new Simulator(config("none"), p).observe(watch);
        SimResult result = sim.run(null);

        PerturbationReport report = sim.perturbationReport();
        assertTrue(report.overflowed() > 0);
        Map<Long, Integer> atEachWake = new TreeMap<>();
        watch.receivedBySleeper.stream().filter(t -> t % (1000 * MS) == 0)
                .forEach(t -> atEachWake.merge(t, 1, Integer::sum));
        assertFalse(atEachWake.isEmpty());
        atEachWake.values().forEach(n -> assertTrue(n <= 20, "processed on waking: " + n));
        // Measured overflowed data frames are the run's only losses, and NAKs recover them.
        assertTrue(result.losses() > 0 && result.losses() <= report.overflowed());
        assertEquals(0, result.unrecovered());
        assertTrue(result.verified());
    }

    @Test
    void aRunWithAPerturbationIsDeterministic() {
        Perturbation p = new Perturbation(SLEEPER, 0.5, 200 * MS, 50);
        SimConfig config = new SimConfig(8, 1, 8, new PbcastProtocol(), LossSpec.parse("uniform:0.02"),
                LossScope.DATA, 2, 1, 1000, 256, 50_000, 11);
        Simulator first = new Simulator(config, p);
        Simulator second = new Simulator(config, p);
        assertEquals(first.run(null), second.run(null));
        assertEquals(first.perturbationReport(), second.perturbationReport());
        assertEquals("3:0.5:200.0", first.run(null).parameters().get("perturb"));
    }

    @Test
    void fractionZeroChangesNothingButTheParametersAndNoPerturbationAddsNone() {
        SimResult plain = new Simulator(config("uniform:0.01")).run(null);
        SimResult zero = new Simulator(config("uniform:0.01"), new Perturbation(SLEEPER, 0, 1000 * MS, 20)).run(null);
        assertEquals(plain.counters(), zero.counters());
        assertEquals(plain.losses(), zero.losses());
        assertFalse(plain.parameters().containsKey("perturb"));
        assertEquals(20, zero.parameters().get("perturbBacklog"));
        assertNotEquals(plain.parameters(), zero.parameters());
    }

    @Test
    void theScheduleSleepsAtTheEndOfEachPeriod() {
        Perturbation p = new Perturbation(0, 0.25, 1000 * MS, 1);
        assertFalse(p.asleep(0));
        assertFalse(p.asleep(749 * MS));
        assertTrue(p.asleep(750 * MS));
        assertTrue(p.asleep(999 * MS));
        assertFalse(p.asleep(1000 * MS));
        assertEquals(2000 * MS, p.wakeNs(1800 * MS));
        assertFalse(new Perturbation(0, 0, 1000 * MS, 1).asleep(999 * MS));
    }

    @Test
    void badPerturbationsAreRefusedWithTheRule() {
        assertEquals("3:0.25:1000.0", Perturbation.parse("3:0.25", 5).toString());
        assertEquals(200 * MS, Perturbation.parse(" 3 : 0.5 : 200 ", 5).periodNs());
        assertMessage("--perturb 3: expected NODE:FRACTION[:PERIOD_MS]", "3");
        assertMessage("--perturb a:0.1: NODE must be a whole number", "a:0.1");
        assertMessage("the fraction asleep must be in [0, 1)", "3:1");
        assertMessage("the fraction asleep must be in [0, 1)", "3:NaN");
        assertMessage("the period must be in 1..60000 ms", "3:0.1:0");
        assertMessage("PERIOD_MS numbers", "3:0.1:Infinity");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Simulator(config("none"), new Perturbation(8, 0.1, 1000 * MS, 1)));
        assertTrue(e.getMessage().contains("--perturb 8: the node index must be in 0..7"), e.getMessage());
    }

    private static void assertMessage(String expected, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Perturbation.parse(text, 5));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
