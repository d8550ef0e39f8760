package io.ricochet.lec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A node's multi-group view (paper, section 4.2.3): per-group member lists from membership events, with the node
 * itself excluded, divided into regions, the populated disjoint intersections of the groups this node is in.
 * Regions are recomputed lazily after a change, in O(sum of group sizes).
 */
public final class MultiGroupView {
    private final int self;
    private final Map<Integer, Set<Integer>> members = new HashMap<>();
    private final Set<Integer> myGroups = new TreeSet<>();
    private List<NeighbourRegion> regions = List.of();
    private boolean dirty;
    private long version;

    public MultiGroupView(int self) {
        this.self = self;
    }

    /** Adds {@code node} to {@code group}; returns false if it was already there. */
    public boolean join(int group, int node) {
        dirty = true;
        if (node == self) {
            return myGroups.add(group);
        }
        return members.computeIfAbsent(group, g -> new TreeSet<>()).add(node);
    }

    /** Removes {@code node} from {@code group}; returns false if it was not there. */
    public boolean leave(int group, int node) {
        dirty = true;
        if (node == self) {
            return myGroups.remove(group);
        }
        Set<Integer> set = members.get(group);
        boolean removed = set != null && set.remove(node);
        if (set != null && set.isEmpty()) {
            members.remove(group);
        }
        return removed;
    }

    public boolean isMember(int group) {
        return myGroups.contains(group);
    }

    /** True if {@code node} (not this node) is currently listed in {@code group}. */
    public boolean isListed(int group, int node) {
        Set<Integer> set = members.get(group);
        return set != null && set.contains(node);
    }

    /** Members of {@code group} other than this node, ascending. */
    public Set<Integer> members(int group) {
        Set<Integer> listed = members.get(group);
        return listed == null ? Collections.emptySet() : Collections.unmodifiableSet(listed);
    }

    public Set<Integer> myGroups() {
        return Collections.unmodifiableSet(myGroups);
    }

    /** Members of {@code group} other than this node. */
    public int groupSize(int group) {
        Set<Integer> set = members.get(group);
        return set == null ? 0 : set.size();
    }

    /** Incremented every time the regions are recomputed after a change. */
    public long version() {
        refresh();
        return version;
    }

    /** The populated regions, largest label first (the order Algorithm 1 uses). */
    public List<NeighbourRegion> regions() {
        refresh();
        return regions;
    }

    private void refresh() {
        if (!dirty) {
            return;
        }
        dirty = false;
        version++;
        Map<Integer, List<Integer>> groupsOfNode = new TreeMap<>();
        for (int group : myGroups) {
            for (int node : members.getOrDefault(group, Set.of())) {
                groupsOfNode.computeIfAbsent(node, n -> new ArrayList<>()).add(group);
            }
        }
        Map<GroupSet, List<Integer>> byLabel = new TreeMap<>();
        for (Map.Entry<Integer, List<Integer>> e : groupsOfNode.entrySet()) {
            GroupSet label = GroupSet.of(e.getValue().stream().mapToInt(Integer::intValue).toArray());
            byLabel.computeIfAbsent(label, l -> new ArrayList<>()).add(e.getKey());
        }
        List<NeighbourRegion> computed = new ArrayList<>(byLabel.size());
        byLabel.forEach((label, nodes) ->
                computed.add(new NeighbourRegion(label, nodes.stream().mapToInt(Integer::intValue).toArray())));
        regions = List.copyOf(computed);
    }
}
