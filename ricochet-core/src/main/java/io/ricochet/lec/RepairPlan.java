package io.ricochet.lec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/**
 * Algorithm 1 of the paper (section 4.1): maps each repair bin, labelled by a set of groups, to the regions it
 * sends repairs to and the mean number of targets it picks from each.
 *
 * <p>For a target region T and each group G forming it, G's packets owe T {@code c_G * |T| / |G|} targets per
 * packet (stratified sampling, 4.1.2). Starting with S = T's label, the bin labelled S takes the minimum of
 * the owed values over S from T; the groups whose debt reaches zero leave S; the others carry the remainder to
 * the bin of the smaller S, and so on until S is empty. A data packet of G enters every bin whose label contains
 * G, exactly once each, so its expected targets in T add up to exactly its debt. The cost is O(I * d) for I
 * regions of at most d groups. (The paper's pseudo-code names the loop variables the other way round; its text
 * and Figure 7 fix the meaning used here: "the repair bin for ab selects 0.4 from ab and 0.8 from abc".)
 */
public final class RepairPlan {
    private static final double EPSILON = 1e-9;

    /** One row of a bin's target table: pick {@code mean} nodes (on average) from {@code region}. */
    public record Target(NeighbourRegion region, double mean) {
    }

    private final Map<GroupSet, List<Target>> targetsByBin;

    private RepairPlan(Map<GroupSet, List<Target>> targetsByBin) {
        this.targetsByBin = targetsByBin;
    }

    /**
     * Runs Algorithm 1.
     *
     * @param regions   the populated regions of this node's view
     * @param groupSize |G|: the members of group G other than this node
     * @param c         rate-of-fire c of group G
     */
    public static RepairPlan compute(List<NeighbourRegion> regions, IntToDoubleFunction groupSize,
                                     IntToDoubleFunction c) {
        Map<GroupSet, List<Target>> plan = new LinkedHashMap<>();
        List<NeighbourRegion> ordered = new ArrayList<>(regions);
        ordered.sort((a, b) -> a.label().compareTo(b.label()));
        for (NeighbourRegion target : ordered) {
            GroupSet label = target.label();
            Map<Integer, Double> owed = new HashMap<>();
            for (int i = 0; i < label.size(); i++) {
                int g = label.get(i);
                double size = groupSize.applyAsDouble(g);
                owed.put(g, size == 0 ? 0 : c.applyAsDouble(g) * target.size() / size);
            }
            GroupSet bin = label.retain(g -> owed.get(g) > EPSILON);
            while (!bin.isEmpty()) {
                double min = Double.MAX_VALUE;
                for (int i = 0; i < bin.size(); i++) {
                    min = Math.min(min, owed.get(bin.get(i)));
                }
                plan.computeIfAbsent(bin, b -> new ArrayList<>()).add(new Target(target, min));
                for (int i = 0; i < bin.size(); i++) {
                    owed.merge(bin.get(i), -min, Double::sum);
                }
                bin = bin.retain(g -> owed.get(g) > EPSILON);
            }
        }
        plan.replaceAll((bin, targets) -> List.copyOf(targets));
        return new RepairPlan(Collections.unmodifiableMap(plan));
    }

    /** Every bin with at least one target, mapped to its targets. */
    public Map<GroupSet, List<Target>> bins() {
        return targetsByBin;
    }

    /** The targets of the bin labelled {@code bin}; empty if it has none. */
    public List<Target> targets(GroupSet bin) {
        return targetsByBin.getOrDefault(bin, List.of());
    }

    /** Mean number of targets of a repair from {@code bin} in the region labelled {@code region}. */
    public double mean(GroupSet bin, GroupSet region) {
        double sum = 0;
        for (Target t : targets(bin)) {
            if (t.region().label().equals(region)) {
                sum += t.mean();
            }
        }
        return sum;
    }
}
