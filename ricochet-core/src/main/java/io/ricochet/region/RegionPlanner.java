package io.ricochet.region;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * QSM's greedy partition of groups into regularly overlapping sets, and the regions of each set (section 3 of the
 * QSM paper, after the technique of its reference [28]). Deterministic: the result depends only on the groups and
 * their member sets, not on the order they are given in.
 *
 * <p>The groups are taken largest first (ties: lowest id first). A set starts with the largest group not yet in a
 * set, then tries every remaining group once, in the same order. A group joins the set when it cuts no region of
 * the set into a piece smaller than {@code minRegionSize}, and the nodes it brings new to the set are none, all of
 * its members (it is disjoint from the set and becomes a region of its own, as it would in a set of its own), or
 * at least {@code minRegionSize}. So a group that is a union of whole regions (in particular one with the same
 * members as a group of the set) always fits, and a group that splits regions fits when both halves stay large.
 * Regions smaller than the minimum still exist: a small group is small wherever it goes. Why a minimum: a small
 * region costs a multicast address and one more IP multicast per message to each of its groups while serving few
 * receivers; the paper aims at regions of 5-10 members and groups spanning at most a few regions.
 *
 * <p>Cost: each test of a group is linear in its size, so planning costs O(sets x total memberships) time and
 * O(nodes + total memberships) memory.
 */
public final class RegionPlanner {
    /** The largest minimum region size accepted (a view lists at most a few thousand members anyway). */
    public static final int MAX_MIN_REGION_SIZE = 65_535;

    private final int minRegionSize;

    /** @param minRegionSize the smallest region a group may create when it joins a set, 1..65535 */
    public RegionPlanner(int minRegionSize) {
        if (minRegionSize < 1 || minRegionSize > MAX_MIN_REGION_SIZE) {
            throw new IllegalArgumentException("min region size must be in 1.." + MAX_MIN_REGION_SIZE + ", got "
                    + minRegionSize);
        }
        this.minRegionSize = minRegionSize;
    }

    public int minRegionSize() {
        return minRegionSize;
    }

    /** Plans the regions of {@code groups} (group id to its members); groups without members get none. */
    public RegionPlan plan(Map<Integer, ? extends Collection<Integer>> groups) {
        int[] nodeIds = groups.values().stream().flatMap(Collection::stream).mapToInt(Integer::intValue)
                .sorted().distinct().toArray();
        List<int[]> order = new ArrayList<>(); // {group id, then its members as dense indexes}
        TreeMap<Integer, Collection<Integer>> sorted = new TreeMap<>(groups);
        sorted.forEach((group, members) -> {
            int[] dense = members.stream().mapToInt(n -> Arrays.binarySearch(nodeIds, n)).sorted().distinct()
                    .toArray();
            if (dense.length > 0) {
                int[] entry = new int[dense.length + 1];
                entry[0] = group;
                System.arraycopy(dense, 0, entry, 1, dense.length);
                order.add(entry);
            }
        });
        order.sort(Comparator.comparingInt((int[] e) -> -e.length).thenComparingInt(e -> e[0]));
        return new Run(nodeIds, order).plan();
    }

    /** One planning run: the regions of the set being built, as a region index per node. */
    private final class Run {
        private final int[] nodeIds;
        private final List<int[]> order;
        private final boolean[] placed;
        private final int[] regionOf;
        private int[] regionSize = new int[16];
        private int[] hits = new int[16];
        private int[] splitTo = new int[16];
        private int regions;

        Run(int[] nodeIds, List<int[]> order) {
            this.nodeIds = nodeIds;
            this.order = order;
            this.placed = new boolean[order.size()];
            this.regionOf = new int[nodeIds.length];
            Arrays.fill(regionOf, -1);
        }

        RegionPlan plan() {
            List<List<Integer>> sets = new ArrayList<>();
            List<Region> all = new ArrayList<>();
            for (int first = 0; first < order.size(); first++) {
                if (placed[first]) {
                    continue;
                }
                List<int[]> set = new ArrayList<>();
                regions = 0;
                add(order.get(first));
                placed[first] = true;
                set.add(order.get(first));
                for (int c = first + 1; c < order.size(); c++) {
                    if (!placed[c] && fits(order.get(c))) {
                        add(order.get(c));
                        placed[c] = true;
                        set.add(order.get(c));
                    }
                }
                all.addAll(regionsOf(sets.size(), set));
                List<Integer> ids = new ArrayList<>();
                set.forEach(g -> ids.add(g[0]));
                ids.sort(null);
                sets.add(ids);
                for (int[] g : set) {
                    for (int i = 1; i < g.length; i++) {
                        regionOf[g[i]] = -1;
                    }
                }
            }
            return new RegionPlan(sets, all);
        }

        /** Whether {@code group} splits no region into a small piece and brings no small crowd of new nodes. */
        private boolean fits(int[] group) {
            int newcomers = countHits(group);
            boolean ok = newcomers == 0 || newcomers >= minRegionSize || newcomers == group.length - 1;
            for (int i = 1; i < group.length; i++) {
                int r = regionOf[group[i]];
                if (r >= 0 && hits[r] > 0) {
                    int in = hits[r];
                    int out = regionSize[r] - in;
                    if (out > 0 && (in < minRegionSize || out < minRegionSize)) {
                        ok = false;
                    }
                    hits[r] = 0;
                }
            }
            return ok;
        }

        /** Adds {@code group} to the set: the part of each region in it becomes a region of its own. */
        private void add(int[] group) {
            int newcomers = countHits(group);
            int fresh = newcomers > 0 ? newRegion() : -1;
            for (int i = 1; i < group.length; i++) {
                int r = regionOf[group[i]];
                if (r >= 0 && hits[r] > 0) {
                    splitTo[r] = hits[r] < regionSize[r] ? newRegion() : r;
                    hits[r] = 0;
                }
            }
            for (int i = 1; i < group.length; i++) {
                int node = group[i];
                int r = regionOf[node];
                int to = r < 0 ? fresh : splitTo[r];
                if (to != r) {
                    if (r >= 0) {
                        regionSize[r]--;
                    }
                    regionSize[to]++;
                    regionOf[node] = to;
                }
            }
        }

        /** Counts the group's nodes per region into {@link #hits}; returns how many are in no region yet. */
        private int countHits(int[] group) {
            int newcomers = 0;
            for (int i = 1; i < group.length; i++) {
                int r = regionOf[group[i]];
                if (r < 0) {
                    newcomers++;
                } else {
                    hits[r]++;
                }
            }
            return newcomers;
        }

        private int newRegion() {
            if (regions == regionSize.length) {
                regionSize = Arrays.copyOf(regionSize, regions * 2);
                hits = Arrays.copyOf(hits, regions * 2);
                splitTo = Arrays.copyOf(splitTo, regions * 2);
            }
            regionSize[regions] = 0;
            return regions++;
        }

        /** The regions of one finished set: its nodes grouped by their groups within the set. */
        private List<Region> regionsOf(int setIndex, List<int[]> set) {
            List<int[]> byId = new ArrayList<>(set);
            byId.sort(Comparator.comparingInt(g -> g[0]));
            Map<Integer, List<Integer>> groupsOfNode = new HashMap<>();
            for (int[] g : byId) {
                for (int i = 1; i < g.length; i++) {
                    groupsOfNode.computeIfAbsent(g[i], n -> new ArrayList<>()).add(g[0]);
                }
            }
            TreeMap<List<Integer>, List<Integer>> members = new TreeMap<>(RegionPlanner::compareLists);
            new TreeMap<>(groupsOfNode).forEach((node, groups) ->
                    members.computeIfAbsent(groups, k -> new ArrayList<>()).add(nodeIds[node]));
            List<Region> out = new ArrayList<>();
            members.forEach((groups, nodes) -> out.add(new Region(setIndex, groups, nodes)));
            return out;
        }
    }

    private static int compareLists(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = Integer.compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }
}
