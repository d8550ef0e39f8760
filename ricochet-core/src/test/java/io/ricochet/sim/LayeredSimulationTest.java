package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayeredSimulationTest {
    private static final long SECOND = 1_000_000_000L;

    /** Receivers at fair levels 0..3, and one whose bottleneck halves at 40 s (fair 3, then 2). */
    private static LayeredSimConfig config(long seed, boolean burstAllLayers) {
        return config(seed, burstAllLayers, 0);
    }

    private static LayeredSimConfig config(long seed, boolean burstAllLayers, double randomLoss) {
        List<LayeredSimConfig.Receiver> receivers = new ArrayList<>();
        for (int k = 0; k <= 3; k++) {
            receivers.add(LayeredSimConfig.Receiver.fixed("r" + k, 1.5 * 100 * (1 << k)));
        }
        receivers.add(new LayeredSimConfig.Receiver("halved", 1200, 40 * SECOND, 600));
        return new LayeredSimConfig(5, 100, SECOND, SECOND / 4, burstAllLayers, 8, SECOND / 20, SECOND / 20,
                SECOND / 100, SECOND / 2, 80 * SECOND, seed, randomLoss, receivers);
    }

    private static List<String> summary(List<LayeredTrace> traces) {
        return traces.stream().map(t -> t.name() + " " + t.startNs() + " " + t.changes() + " " + t.losses() + " "
                + t.burstLosses() + " " + t.linkDrops() + " " + t.received()).toList();
    }

    @Test
    void shouldGiveTheSameRunForTheSameSeed() {
        List<String> first = summary(new LayeredSimulation(config(7, false)).run());
        assertEquals(first, summary(new LayeredSimulation(config(7, false)).run()));
        assertNotEquals(first, summary(new LayeredSimulation(config(8, false)).run()), "the seed sets start times");
    }

    @Test
    void shouldEndEveryReceiverWithinOneLevelOfItsFairLevel() {
        for (boolean all : new boolean[] {false, true}) {
            List<LayeredTrace> traces = new LayeredSimulation(config(1, all)).run();
            long end = 80 * SECOND;
            for (LayeredTrace t : traces) {
                int fair = t.fair().applyAsInt(end - 1);
                assertTrue(Math.abs(t.levelAt(end) - fair) <= 1, t.name() + " ends at " + t.levelAt(end)
                        + ", fair " + fair + " (all layers burst: " + all + ")");
            }
        }
    }

    @Test
    void shouldMoveTheReceiverWhoseBottleneckHalvesDownALevel() {
        LayeredTrace halved = new LayeredSimulation(config(1, false)).run().get(4);
        assertEquals(3, halved.fair().applyAsInt(39 * SECOND));
        assertEquals(2, halved.fair().applyAsInt(40 * SECOND));
        assertEquals(3, halved.levelAt(39 * SECOND));
        assertEquals(2, halved.levelAt(79 * SECOND));
        assertTrue(halved.leaves() >= 1);
    }

    @Test
    void shouldLeaveOnLossesTheLayersDidNotCauseAndKeepProbing() {
        List<LayeredTrace> clean = new LayeredSimulation(config(3, false)).run();
        List<LayeredTrace> lossy = new LayeredSimulation(config(3, false, 0.002)).run();
        long from = 20 * SECOND;
        long to = 40 * SECOND;
        for (int i = 1; i < 4; i++) {
            LayeredTrace t = lossy.get(i);
            assertEquals(clean.get(i).startNs(), t.startNs(), "random losses leave start times alone");
            int fair = t.fair().applyAsInt(to - 1);
            double mean = t.meanLevel(from, to);
            // Section VII-A: any loss outside a burst drops a layer, whatever caused it; joins come back at SPs.
            assertTrue(t.leaves() >= 1 && t.joins() >= t.leaves(), t.name() + ": " + t.joins() + " joins, "
                    + t.leaves() + " leaves");
            assertTrue(mean <= fair && mean < clean.get(i).meanLevel(from, to), t.name() + " mean " + mean
                    + ", fair " + fair + ", without random loss " + clean.get(i).meanLevel(from, to));
        }
    }
}
