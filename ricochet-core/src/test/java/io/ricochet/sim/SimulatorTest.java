package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.nak.NakCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole-protocol scenarios in the simulator, parameterised over the variants (LEC alone, NAK alone, LEC + NAK).
 * Assertions are on delivered sets and counters, never on wall time.
 */
class SimulatorTest {
    /** The protocol variants a scenario runs under. */
    enum Variant {
        LEC_ONLY(5, false), NAK_ONLY(0, true), LEC_AND_NAK(5, true);

        final double c;
        final boolean nak;

        Variant(double c, boolean nak) {
            this.c = c;
            this.nak = nak;
        }
    }

    static SimConfig config(Variant variant, String loss, int stagger, long seed) {
        RicochetConfig engine = RicochetConfig.builder().c(variant.c).nakEnabled(variant.nak).stagger(stagger).build();
        return new SimConfig(16, 12, 8, new RicochetProtocol(engine), LossSpec.parse(loss), LossScope.DATA, 2, 1,
                1000, 512, 50_000, seed);
    }

    static SimResult run(SimConfig config) {
        return new Simulator(config).run(null);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void shouldDeliverEveryPayloadIntactAndOnlyOnce(Variant variant) {
        SimResult r = run(config(variant, "uniform:0.02", 1, 11));
        assertTrue(r.verified(), "corrupt " + r.corruptDeliveries() + " duplicate " + r.duplicateDeliveries());
        assertTrue(r.losses() > 100, "the run must lose packets to test anything: " + r.losses());
        assertEquals(r.losses(), r.lecRecovered() + r.nakRecovered() + r.lateArrivals() + r.unrecovered());
        long detected = r.counters().get(EngineCounter.LOSSES_DETECTED);
        long resolved = r.counters().get(LecCounter.RECOVERED_BY_XOR)
                + r.counters().get(EngineCounter.RECOVERED_BY_NAK)
                + r.counters().get(EngineCounter.LATE_ARRIVALS) + r.counters().get(EngineCounter.UNRECOVERED);
        assertEquals(detected, resolved, "every detected loss ends recovered or given up");
        switch (variant) {
            case LEC_ONLY:
                assertEquals(0, r.nakRecovered());
                assertEquals(0, r.counters().get(NakCounter.NAKS_SENT));
                assertTrue(r.lecRecoveryPercent() > 90, "LEC recovery " + r.lecRecoveryPercent());
                break;
            case NAK_ONLY:
                assertEquals(0, r.lecRecovered());
                assertEquals(0, r.counters().get(LecCounter.REPAIRS_SENT));
                assertEquals(0, r.unrecovered(), "NAK alone must recover everything");
                break;
            default:
                assertEquals(0, r.unrecovered(), "LEC + NAK must recover everything");
                assertTrue(r.lecRecovered() > r.nakRecovered());
                break;
        }
    }

    @Test
    void shouldGiveTheSameNumbersForTheSameSeed() {
        SimResult a = run(config(Variant.LEC_AND_NAK, "markov:0.02:5", 2, 5));
        SimResult b = run(config(Variant.LEC_AND_NAK, "markov:0.02:5", 2, 5));
        assertEquals(a, b);
        SimResult c = run(config(Variant.LEC_AND_NAK, "markov:0.02:5", 2, 6));
        assertNotEquals(a.losses(), c.losses());
    }

    @Test
    void shouldRecoverBurstsBetterWithStagger() {
        SimResult plain = run(config(Variant.LEC_ONLY, "bursty:0.02:10", 1, 3));
        SimResult staggered = run(config(Variant.LEC_ONLY, "bursty:0.02:10", 6, 3));
        assertTrue(staggered.lecRecoveryPercent() > plain.lecRecoveryPercent(),
                "stagger 6: " + staggered.lecRecoveryPercent() + "%, stagger 1: " + plain.lecRecoveryPercent() + "%");
    }

    @Test
    void shouldApplyLossToEveryPacketTypeOnlyWhenAskedTo() {
        RicochetConfig engine = RicochetConfig.builder().build();
        SimConfig all = new SimConfig(16, 12, 8, new RicochetProtocol(engine), LossSpec.parse("uniform:0.05"),
                LossScope.ALL, 2, 1, 1000,
                512, 50_000, 9);
        SimResult r = run(all);
        assertTrue(r.verified());
        assertEquals(0, r.unrecovered(), "NAK retries get through lost repairs, NAKs and retransmissions");
        long repairsSent = r.counters().get(LecCounter.REPAIRS_SENT);
        long repairsReceived = r.counters().get(LecCounter.REPAIRS_RECEIVED);
        assertTrue(repairsReceived < repairsSent, "some repairs must be dropped");
        SimResult dataOnly = run(config(Variant.LEC_AND_NAK, "uniform:0.05", 1, 9));
        assertEquals(dataOnly.counters().get(LecCounter.REPAIRS_SENT),
                dataOnly.counters().get(LecCounter.REPAIRS_RECEIVED));
    }

    @Test
    void shouldRunOnAGivenGroupingAsOnTheRandomOne() {
        // 8 nodes each in 4 of 8 groups, every group of exactly 4 (the nodes of its parity), as a real cluster's
        // balanced plan has them; the random grouping would give sizes from 1 to 8.
        List<List<Integer>> membership = new ArrayList<>();
        for (int node = 0; node < 8; node++) {
            List<Integer> own = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                own.add((node + 2 * k) % 8);
            }
            membership.add(own);
        }
        SimConfig given = new SimConfig(8, 4, 4, new RicochetProtocol(RicochetConfig.builder().build()),
                LossSpec.parse("uniform:0.02"),
                LossScope.DATA, 2, 1, 300, 512, 50_000, 5, membership);
        Simulator simulator = new Simulator(given);

        assertArrayEquals(new int[] {1, 3, 5, 7}, simulator.workload().groupsOfNode()[1]);
        for (int[] members : simulator.workload().membersOfGroup()) {
            assertEquals(4, members.length, "every group has exactly 4 members");
        }
        assertEquals(100.0, simulator.workload().sendRatePerNode(), 1e-9, "300 arrivals/s over 3 receivers");
        SimResult r = simulator.run(null);
        assertTrue(r.verified());
        assertTrue(r.losses() > 10, "losses " + r.losses());
        assertEquals(0, r.unrecovered());
        assertEquals("given", r.parameters().get("membership"));
        SimResult random = run(new SimConfig(8, 4, 4, new RicochetProtocol(RicochetConfig.builder().build()),
                LossSpec.parse("uniform:0.02"),
                LossScope.DATA, 2, 1, 300, 512, 50_000, 5));
        assertFalse(random.parameters().containsKey("membership"), "the random grouping's output is unchanged");
    }

    @Test
    void shouldRefuseAGroupingThatDoesNotFitTheFlags() {
        RicochetConfig engine = RicochetConfig.builder().build();
        List<List<Integer>> three = List.of(List.of(0, 1), List.of(1, 2), List.of(0, 2));
        IllegalArgumentException nodes = assertThrows(IllegalArgumentException.class, () -> new SimConfig(4, 2, 2,
                new RicochetProtocol(engine), LossSpec.parse("none"), LossScope.DATA, 1, 1, 100, 64, 0, 1, three));
        assertEquals("--plan: has 3 nodes, but --nodes is 4", nodes.getMessage());
        IllegalArgumentException degree = assertThrows(IllegalArgumentException.class, () -> new SimConfig(3, 2, 2,
                new RicochetProtocol(engine), LossSpec.parse("none"), LossScope.DATA, 1, 1, 100, 64, 0, 1,
                List.of(List.of(0, 1), List.of(1, 1), List.of(0, 2))));
        assertTrue(degree.getMessage().startsWith("--plan: node index 1 is in 1 distinct groups"),
                degree.getMessage());
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class, () -> new SimConfig(3, 2, 2,
                new RicochetProtocol(engine), LossSpec.parse("none"), LossScope.DATA, 1, 1, 100, 64, 0, 1,
                List.of(List.of(0, 1), List.of(1, 2), List.of(0, 3))));
        assertTrue(range.getMessage().startsWith("--plan: group index 3 of node index 2 is outside 0..2"),
                range.getMessage());
    }
}
