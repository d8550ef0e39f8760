package io.ricochet.lec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Algorithm 1: the paper's Figure 7 example exactly, and its guarantee over random overlaps. */
class RepairPlanTest {
    private static final int A = 1;
    private static final int B = 2;
    private static final int C = 3;

    /** Node 0's view in Figure 7: |abc|=10, |ab|=2, |ac|=3, |bc|=7, |a|=5, |b|=1, |c|=5. */
    private static MultiGroupView figure7View() {
        MultiGroupView view = new MultiGroupView(0);
        view.join(A, 0);
        view.join(B, 0);
        view.join(C, 0);
        int[] next = {1};
        addRegion(view, next, 10, A, B, C);
        addRegion(view, next, 2, A, B);
        addRegion(view, next, 3, A, C);
        addRegion(view, next, 7, B, C);
        addRegion(view, next, 5, A);
        addRegion(view, next, 1, B);
        addRegion(view, next, 5, C);
        return view;
    }

    private static void addRegion(MultiGroupView view, int[] next, int size, int... groups) {
        for (int i = 0; i < size; i++) {
            int node = next[0]++;
            for (int g : groups) {
                view.join(g, node);
            }
        }
    }

    private static RepairPlan figure7Plan() {
        MultiGroupView view = figure7View();
        Map<Integer, Double> c = Map.of(A, 5.0, B, 4.0, C, 3.0);
        return RepairPlan.compute(view.regions(), view::groupSize, c::get);
    }

    @Test
    void shouldDivideTheViewIntoSevenRegions() {
        MultiGroupView view = figure7View();
        assertEquals(7, view.regions().size());
        assertEquals(20, view.groupSize(A));
        assertEquals(20, view.groupSize(B));
        assertEquals(25, view.groupSize(C));
    }

    @Test
    void shouldReproduceFigure7() {
        RepairPlan plan = figure7Plan();
        GroupSet abc = GroupSet.of(A, B, C);
        GroupSet ab = GroupSet.of(A, B);
        GroupSet a = GroupSet.of(A);
        // "the repair bin for ab selects 0.4 targets from region ab and 0.8 from abc for every repair packet"
        assertEquals(0.4, plan.mean(ab, ab), 1e-12);
        assertEquals(0.8, plan.mean(ab, abc), 1e-12);
        assertEquals(2, plan.targets(ab).size());
        // The rest of the abc column: c_C^abc = 1.2 from bin abc, the remainder of c_A^abc = 2.5 from bin a.
        assertEquals(1.2, plan.mean(abc, abc), 1e-12);
        assertEquals(0.5, plan.mean(a, abc), 1e-12);
        assertEquals(0.1, plan.mean(a, ab), 1e-12);
    }

    @Test
    void shouldGiveEveryGroupItsRateOfFireSpreadByRegionSize() {
        SplittableRandom rng = new SplittableRandom(20_26);
        for (int trial = 0; trial < 300; trial++) {
            int groups = 1 + rng.nextInt(7);
            int nodes = 2 + rng.nextInt(60);
            MultiGroupView view = new MultiGroupView(0);
            Map<Integer, Double> c = new HashMap<>();
            for (int g = 1; g <= groups; g++) {
                view.join(g, 0);
                c.put(g, rng.nextInt(9) + rng.nextDouble());
            }
            double p = 0.1 + 0.8 * rng.nextDouble();
            for (int node = 1; node <= nodes; node++) {
                for (int g = 1; g <= groups; g++) {
                    if (rng.nextDouble() < p) {
                        view.join(g, node);
                    }
                }
            }
            RepairPlan plan = RepairPlan.compute(view.regions(), view::groupSize, c::get);
            assertGuarantee(view, plan, c, "trial " + trial);
        }
    }

    /** For every group G and region T of G: the bins containing G send c_G * |T| / |G| targets into T. */
    static void assertGuarantee(MultiGroupView view, RepairPlan plan, Map<Integer, Double> c, String what) {
        for (Map.Entry<GroupSet, List<RepairPlan.Target>> bin : plan.bins().entrySet()) {
            for (RepairPlan.Target t : bin.getValue()) {
                for (int i = 0; i < bin.getKey().size(); i++) {
                    assertTrue(t.region().label().contains(bin.getKey().get(i)),
                            what + ": bin " + bin.getKey() + " targets region " + t.region().label());
                }
                assertTrue(t.mean() > 0, what);
            }
        }
        for (int g : view.myGroups()) {
            double total = 0;
            for (NeighbourRegion region : view.regions()) {
                if (!region.label().contains(g)) {
                    continue;
                }
                double sent = 0;
                for (GroupSet bin : plan.bins().keySet()) {
                    if (bin.contains(g)) {
                        sent += plan.mean(bin, region.label());
                    }
                }
                double owed = c.get(g) * region.size() / view.groupSize(g);
                assertEquals(owed, sent, 1e-9, what + ": group " + g + " into region " + region.label());
                total += sent;
            }
            if (view.groupSize(g) > 0) {
                assertEquals(c.get(g), total, 1e-9, what + ": group " + g + " total");
            }
        }
    }
}
