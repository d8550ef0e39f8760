package io.ricochet.lec;

import io.ricochet.engine.GroupRoster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A node's multi-group view (paper, section 4.2.3): who is in which group ({@link GroupRoster}), divided into
 * regions, the populated disjoint intersections of the groups this node is in. Regions are recomputed lazily after
 * a change, in O(sum of group sizes).
 */
public final class MultiGroupView {
    private final GroupRoster roster;
    private List<NeighbourRegion> regions = List.of();
    private boolean dirty;
    private long version;

    public MultiGroupView(int self) {
        this.roster = new GroupRoster(self);
    }

    /** Adds {@code node} to {@code group}; returns false if it was already there. */
    public boolean join(int group, int node) {
        dirty = true;
        return roster.join(group, node);
    }

    /** Removes {@code node} from {@code group}; returns false if it was not there. */
    public boolean leave(int group, int node) {
        dirty = true;
        return roster.leave(group, node);
    }

    public boolean isMember(int group) {
        return roster.isMember(group);
    }

    /** True if {@code node} (not this node) is currently listed in {@code group}. */
    public boolean isListed(int group, int node) {
        return roster.isListed(group, node);
    }

    /** Members of {@code group} other than this node, ascending. */
    public Set<Integer> members(int group) {
        return roster.others(group);
    }

    public Set<Integer> myGroups() {
        return roster.groups();
    }

    /** Members of {@code group} other than this node. */
    public int groupSize(int group) {
        return roster.othersCount(group);
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
        for (int group : roster.groups()) {
            for (int node : roster.others(group)) {
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
