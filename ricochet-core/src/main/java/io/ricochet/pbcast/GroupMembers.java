package io.ricochet.pbcast;

import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

/**
 * Per-group member lists (self excluded) from the membership events, the groups this node belongs to, and the
 * random choices made among members: gossip targets and Pbcast-local's neighbour. Iteration orders are sorted, so
 * a seeded generator gives the same choices on every run.
 */
final class GroupMembers {
    private final int self;
    private final Map<Integer, NavigableSet<Integer>> others = new TreeMap<>();
    private final Map<Integer, int[]> snapshots = new TreeMap<>();
    private final NavigableSet<Integer> joined = new TreeSet<>();
    private int[] scratch = new int[16];

    GroupMembers(int self) {
        this.self = self;
    }

    /** Adds {@code node} to {@code group}; returns true if it was not listed. */
    boolean join(int group, int node) {
        if (node == self) {
            return joined.add(group);
        }
        snapshots.remove(group);
        return others.computeIfAbsent(group, g -> new TreeSet<>()).add(node);
    }

    void leave(int group, int node) {
        if (node == self) {
            joined.remove(group);
            return;
        }
        NavigableSet<Integer> members = others.get(group);
        if (members != null && members.remove(node)) {
            snapshots.remove(group);
        }
    }

    /** True if {@code node} (not this node) is listed in {@code group}. */
    boolean contains(int group, int node) {
        NavigableSet<Integer> members = others.get(group);
        return members != null && members.contains(node);
    }

    boolean isMember(int group) {
        return joined.contains(group);
    }

    /** The groups this node is a member of, ascending. */
    Iterable<Integer> groups() {
        return joined;
    }

    /** The other members of {@code group}, ascending; do not modify. */
    int[] others(int group) {
        return snapshots.computeIfAbsent(group, g -> {
            NavigableSet<Integer> members = others.get(g);
            return members == null ? new int[0] : members.stream().mapToInt(Integer::intValue).toArray();
        });
    }

    /**
     * Chooses {@code min(k, others)} distinct other members of {@code group} uniformly at random into {@code out};
     * returns how many.
     */
    int pick(int group, int k, RandomGenerator rng, int[] out) {
        int[] members = others(group);
        int n = members.length;
        int[] pool = scratch(n);
        System.arraycopy(members, 0, pool, 0, n);
        int chosen = Math.min(k, n);
        for (int i = 0; i < chosen; i++) {
            int j = i + rng.nextInt(n - i);
            int tmp = pool[i];
            pool[i] = pool[j];
            pool[j] = tmp;
            out[i] = pool[i];
        }
        return chosen;
    }

    /** A random other member of {@code group} in this node's zone, not {@code exclude}; -1 if there is none. */
    int pickNeighbour(int group, int exclude, Neighbourhood neighbourhood, RandomGenerator rng) {
        int[] members = others(group);
        int[] pool = scratch(members.length);
        int zone = neighbourhood.zoneOf(self);
        int n = 0;
        for (int member : members) {
            if (member != exclude && neighbourhood.zoneOf(member) == zone) {
                pool[n++] = member;
            }
        }
        return n == 0 ? -1 : pool[rng.nextInt(n)];
    }

    private int[] scratch(int n) {
        if (scratch.length < n) {
            scratch = new int[Math.max(n, scratch.length * 2)];
        }
        return scratch;
    }
}
