package io.ricochet.membership;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The daemon's own record of the membership it has handed to its engine: which groups this node is in and who
 * else is in them. Every membership change reaches the engine through the driver, which keeps this in step, so
 * the daemon can answer "am I in G?" and list members for stats whatever protocol the engine runs.
 */
final class GroupMembership {
    private final int self;
    private final Set<Integer> myGroups = new TreeSet<>();
    private final Map<Integer, Set<Integer>> others = new HashMap<>();

    GroupMembership(int self) {
        this.self = self;
    }

    void join(int group, int node) {
        if (node == self) {
            myGroups.add(group);
        } else {
            others.computeIfAbsent(group, g -> new TreeSet<>()).add(node);
        }
    }

    void leave(int group, int node) {
        if (node == self) {
            myGroups.remove(group);
            return;
        }
        Set<Integer> set = others.get(group);
        if (set != null) {
            set.remove(node);
            if (set.isEmpty()) {
                others.remove(group);
            }
        }
    }

    boolean isMember(int group) {
        return myGroups.contains(group);
    }

    /** Members of {@code group} other than this node, ascending. */
    List<Integer> others(int group) {
        return new ArrayList<>(others.getOrDefault(group, Set.of()));
    }

    List<Integer> myGroups() {
        return new ArrayList<>(myGroups);
    }
}
