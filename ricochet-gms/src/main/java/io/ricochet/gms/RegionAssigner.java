package io.ricochet.gms;

import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.ViewRegion;
import io.ricochet.region.Region;
import io.ricochet.region.RegionPlan;
import io.ricochet.region.RegionPlanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The regions of a partition's groups as views carry them: plans the regions of the current groups
 * ({@link RegionPlanner}) and gives each region the address of its key in the region pool. Deterministic (every
 * replica computes the same from the same groups), no I/O. Two regions whose keys meet in the 65536-address pool
 * share an address: that costs traffic only (every data packet names its group, and a daemon counts and drops
 * packets of groups it is not in). A group whose regions would not fit one GROUP_VIEW gets none: it is sent to its
 * own address, as without regions.
 */
final class RegionAssigner {
    private final RegionPlanner planner;
    private final MulticastPool pool;

    RegionAssigner(RegionSettings settings) {
        this.planner = new RegionPlanner(settings.minRegionSize());
        this.pool = settings.pool();
    }

    /** Each group's regions, by group; empty lists for groups whose regions do not fit a view. */
    Map<Integer, List<ViewRegion>> assign(SortedMap<Integer, GroupState> groups) {
        Map<Integer, List<Integer>> members = new HashMap<>();
        groups.forEach((g, state) -> members.put(g, state.memberIds()));
        RegionPlan plan = planner.plan(members);
        Map<Integer, List<ViewRegion>> out = new HashMap<>();
        for (int g : groups.keySet()) {
            List<Region> regions = plan.regionsOf(g);
            List<ViewRegion> view = new ArrayList<>(regions.size());
            if (GroupView.fitsWithRegions(groups.get(g).size(), regions.size())) {
                for (Region r : regions) {
                    view.add(new ViewRegion(pool.addressOf((int) (r.key() ^ (r.key() >>> 32))), r.members()));
                }
            }
            out.put(g, List.copyOf(view));
        }
        return out;
    }
}
