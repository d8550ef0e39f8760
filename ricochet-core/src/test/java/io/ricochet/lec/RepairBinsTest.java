package io.ricochet.lec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.RepairFlyweight;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Repairs actually emitted by the bins: rate-of-fire per group and region, XOR cost, and stagger spacing. */
class RepairBinsTest {
    private static final int PACKETS_PER_GROUP = 20_000;
    private static final byte[] NO_SEAL = new byte[0];

    /** Counts, per (group, target region), how many repairs naming a packet of that group were sent there. */
    /** Repairs sent per "group->region of the target", from a recording of what the bins unicast. */
    private static Map<String, Long> repairsByRegion(RecordingOutbox out, Map<Integer, GroupSet> regionOf) {
        Map<String, Long> sent = new HashMap<>();
        RepairFlyweight repair = new RepairFlyweight();
        for (RecordingOutbox.Sent s : out.sent) {
            repair.wrap(s.frame(), 0);
            for (int i = 0; i < repair.count(); i++) {
                sent.merge(repair.entryGroup(i) + "->" + regionOf.get(s.to()), 1L, Long::sum);
            }
        }
        return sent;
    }

    @Test
    void shouldSendEachPacketToCTargetsOnAverageSpreadByRegionSize() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int trial = 0; trial < 5; trial++) {
            int groups = 2 + rng.nextInt(4);
            MultiGroupView view = new MultiGroupView(0);
            Map<Integer, Double> c = new HashMap<>();
            for (int g = 1; g <= groups; g++) {
                view.join(g, 0);
            }
            for (int node = 1; node <= 40; node++) {
                for (int g = 1; g <= groups; g++) {
                    if (rng.nextDouble() < 0.4) {
                        view.join(g, node);
                    }
                }
            }
            for (int g = 1; g <= groups; g++) {
                c.put(g, Math.min(view.groupSize(g), 1 + rng.nextInt(6) + rng.nextDouble()));
            }
            RecordingOutbox out = new RecordingOutbox();
            Map<Integer, GroupSet> regionOf = new HashMap<>();
            for (NeighbourRegion region : view.regions()) {
                for (int node : region.nodes()) {
                    regionOf.put(node, region.label());
                }
            }
            Counters counters = new Counters(Counters.set(EngineCounter.values(), LecCounter.values()));
            RepairBins bins = new RepairBins(0, 8, 1, 64, 0, rng.split(), counters, out);
            bins.apply(RepairPlan.compute(view.regions(), view::groupSize, c::get));
            byte[] payload = new byte[64];
            for (int i = 0; i < PACKETS_PER_GROUP; i++) {
                for (int g = 1; g <= groups; g++) {
                    bins.add(99, g, i, payload, 0, payload.length, payload, 0);
                }
            }
            Map<String, Long> sent = repairsByRegion(out, regionOf);
            double cSum = 0;
            for (int g = 1; g <= groups; g++) {
                cSum += c.get(g);
                double total = 0;
                for (NeighbourRegion region : view.regions()) {
                    if (!region.label().contains(g)) {
                        continue;
                    }
                    double perPacket = sent.getOrDefault(g + "->" + region.label(), 0L)
                            / (double) PACKETS_PER_GROUP;
                    double expected = c.get(g) * region.size() / view.groupSize(g);
                    assertEquals(expected, perPacket, 0.03 * c.get(g) + 0.01,
                            "trial " + trial + " group " + g + " region " + region.label());
                    total += perPacket;
                }
                assertEquals(c.get(g), total, 0.02 * c.get(g), "trial " + trial + " group " + g);
            }
            double xorsPerPacket = counters.get(LecCounter.BIN_XORS) / (double) (PACKETS_PER_GROUP * groups);
            assertTrue(xorsPerPacket <= cSum / groups * 7 / 8 * 1.02, "XORs per packet " + xorsPerPacket
                    + " above (r - 1) / r of the mean c " + cSum / groups);
        }
    }

    @Test
    void shouldSpacePacketsOfOneRepairByTheStagger() {
        MultiGroupView view = new MultiGroupView(0);
        view.join(1, 0);
        for (int node = 1; node <= 5; node++) {
            view.join(1, node);
        }
        for (int stagger : new int[] {1, 3, 6}) {
            RepairFlyweight repair = new RepairFlyweight();
            RecordingOutbox out = new RecordingOutbox();
            RepairBins bins = new RepairBins(0, 4, stagger, 16, 0, new SplittableRandom(3),
                    new Counters(Counters.set(EngineCounter.values(), LecCounter.values())), out);
            bins.apply(RepairPlan.compute(view.regions(), view::groupSize, g -> 2.0));
            for (int seqno = 0; seqno < 4000; seqno++) {
                bins.add(1, 1, seqno, new byte[16], 0, 16, NO_SEAL, 0);
            }
            for (RecordingOutbox.Sent s : out.sent) {
                repair.wrap(s.frame(), 0);
                for (int i = 1; i < repair.count(); i++) {
                    assertEquals(stagger, repair.entrySeqno(i) - repair.entrySeqno(i - 1));
                }
            }
            assertTrue(out.sent.size() > 100, "repairs seen: " + out.sent.size());
        }
    }
}
