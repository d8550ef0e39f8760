package io.ricochet.bench.regions;

import io.ricochet.region.Region;
import io.ricochet.region.RegionPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the QSM paper reports of a region plan: regions per node and per group, region sizes, and the share of a
 * node's traffic in its two busiest regions when every group carries the same traffic (a node's traffic in a region
 * is then proportional to how many of its groups the region covers).
 */
final class RegionStats {
    private RegionStats() {
    }

    static Map<String, Object> of(RegionPlan plan, Map<Integer, List<Integer>> groups) {
        Map<Integer, List<Integer>> groupsPerRegionOfNode = new HashMap<>();
        List<Integer> sizes = new ArrayList<>();
        for (Region r : plan.regions()) {
            sizes.add(r.members().size());
            for (int node : r.members()) {
                groupsPerRegionOfNode.computeIfAbsent(node, n -> new ArrayList<>()).add(r.groups().size());
            }
        }
        double[] perNode = new double[groupsPerRegionOfNode.size()];
        double[] top2 = new double[perNode.length];
        int i = 0;
        for (List<Integer> traffic : groupsPerRegionOfNode.values()) {
            traffic.sort(null);
            int n = traffic.size();
            double total = traffic.stream().mapToInt(Integer::intValue).sum();
            perNode[i] = n;
            top2[i] = (traffic.get(n - 1) + (n > 1 ? traffic.get(n - 2) : 0)) / total;
            i++;
        }
        double[] perGroup = groups.keySet().stream().mapToDouble(g -> plan.regionsOf(g).size()).toArray();
        double[] size = sizes.stream().mapToDouble(Integer::doubleValue).toArray();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("sets", plan.sets().size());
        row.put("regions", plan.regions().size());
        row.put("regionsPerNodeMean", mean(perNode));
        row.put("regionsPerNodeMax", max(perNode));
        row.put("regionsPerGroupMean", mean(perGroup));
        row.put("regionsPerGroupP99", quantile(perGroup, 0.99));
        row.put("regionsPerGroupMax", max(perGroup));
        row.put("regionSizeMean", mean(size));
        row.put("regionSizeP10", quantile(size, 0.10));
        row.put("regionSizeP50", quantile(size, 0.50));
        row.put("regionSizeP90", quantile(size, 0.90));
        row.put("regionSizeMax", max(size));
        row.put("top2ShareMean", mean(top2));
        row.put("top2ShareP10", quantile(top2, 0.10));
        return row;
    }

    static double mean(double[] values) {
        return values.length == 0 ? 0 : Arrays.stream(values).average().orElse(0);
    }

    static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    /** The nearest-rank quantile {@code q} of {@code values}. */
    static double quantile(double[] values, double q) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
