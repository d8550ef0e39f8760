package io.ricochet.pbcast;

import io.ricochet.engine.GroupRoster;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * Who is in which group ({@link GroupRoster}, with each group's other members as an array kept until it changes),
 * and the random choices made among members: gossip targets and Pbcast-local's neighbour. Iteration orders are
 * sorted, so a seeded generator gives the same choices on every run.
 */
final class GroupMembers {
    private final int self;
    private final GroupRoster roster;
    private final Map<Integer, int[]> snapshots = new TreeMap<>();
    private int[] scratch = new int[16];

    GroupMembers(int self) {
        this.self = self;
        this.roster = new GroupRoster(self);
    }

    /** Adds {@code node} to {@code group}; returns true if it was not listed. */
    boolean join(int group, int node) {
        if (node != self) {
            snapshots.remove(group);
        }
        return roster.join(group, node);
    }

    void leave(int group, int node) {
        if (roster.leave(group, node) && node != self) {
            snapshots.remove(group);
        }
    }

    /** True if {@code node} (not this node) is listed in {@code group}. */
    boolean contains(int group, int node) {
        return roster.isListed(group, node);
    }

    boolean isMember(int group) {
        return roster.isMember(group);
    }

    /** The groups this node is a member of, ascending. */
    Iterable<Integer> groups() {
        return roster.groups();
    }

    /** The other members of {@code group}, ascending; do not modify. */
    int[] others(int group) {
        return snapshots.computeIfAbsent(group,
                g -> roster.others(g).stream().mapToInt(Integer::intValue).toArray());
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
