package io.ricochet.bench.regions;

import io.ricochet.region.Region;
import io.ricochet.region.RegionPlan;
import io.ricochet.region.RegionPlanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What one join costs the GMS with regions on: a node joins a group it is not in, the partition is planned again,
 * and every group whose regions changed (their addresses or members, as views carry them) is counted, with the
 * views that go out (one per member of each). Seeded.
 */
final class Churn {
    private Churn() {
    }

    static Map<String, Object> of(RegionPlanner planner, RegionPlan plan, Map<Integer, List<Integer>> groups,
                                  int joins, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Integer> ids = new ArrayList<>(new java.util.TreeSet<>(groups.keySet()));
        int nodes = groups.values().stream().flatMap(List::stream).mapToInt(Integer::intValue).max().orElse(0);
        long changed = 0;
        long views = 0;
        for (int j = 0; j < joins; j++) {
            int group = ids.get(random.nextInt(ids.size()));
            int node = 1 + random.nextInt(nodes);
            if (groups.get(group).contains(node)) {
                j--;
                continue;
            }
            Map<Integer, List<Integer>> after = new HashMap<>(groups);
            List<Integer> members = new ArrayList<>(groups.get(group));
            members.add(node);
            after.put(group, members);
            RegionPlan replanned = planner.plan(after);
            for (int g : ids) {
                if (!signature(plan, g).equals(signature(replanned, g))) {
                    changed++;
                    views += after.get(g).size();
                }
            }
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("joins", joins);
        row.put("groupsChangedPerJoin", joins == 0 ? 0.0 : changed / (double) joins);
        row.put("viewsPerJoin", joins == 0 ? 0.0 : views / (double) joins);
        return row;
    }

    /** A group's regions as a view carries them: each region's group list (its address) and members. */
    private static List<List<List<Integer>>> signature(RegionPlan plan, int group) {
        List<List<List<Integer>>> out = new ArrayList<>();
        for (Region r : plan.regionsOf(group)) {
            out.add(List.of(r.groups(), r.members()));
        }
        return out;
    }
}
