package io.ricochet.region;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link RegionPlanner#plan} computes: the sets of groups (each a list of group ids, ascending; sets in the
 * order they were made, largest first group first) and the regions of every set (ordered by set, then by group
 * list). Immutable.
 */
public final class RegionPlan {
    private final List<List<Integer>> sets;
    private final List<Region> regions;
    private final Map<Integer, List<Region>> byGroup = new HashMap<>();
    private final Map<Integer, Integer> setOf = new HashMap<>();

    RegionPlan(List<List<Integer>> sets, List<Region> regions) {
        this.sets = List.copyOf(sets);
        this.regions = List.copyOf(regions);
        for (int s = 0; s < sets.size(); s++) {
            for (int g : sets.get(s)) {
                setOf.put(g, s);
            }
        }
        for (Region r : regions) {
            for (int g : r.groups()) {
                byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(r);
            }
        }
    }

    /** The sets of groups, each ascending. */
    public List<List<Integer>> sets() {
        return sets;
    }

    /** Every region, by set and then by group list. */
    public List<Region> regions() {
        return regions;
    }

    /** The regions {@code group} spans (together they hold exactly its members); empty for an unknown group. */
    public List<Region> regionsOf(int group) {
        return Collections.unmodifiableList(byGroup.getOrDefault(group, List.of()));
    }

    /** The index of the set {@code group} is in, or -1 for an unknown group. */
    public int setOf(int group) {
        return setOf.getOrDefault(group, -1);
    }
}
