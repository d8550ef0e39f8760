package io.ricochet.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * Who is in which group, as the membership events said: the groups this node is in, and the other members of every
 * group it has heard of. Engines and the daemon's driver each keep one in step with the events they are handed, and
 * build what they need on it (regions, gossip targets, session reports). Sets are sorted, so what is drawn from them
 * with a seeded generator is the same on every run. Not thread-safe: owned by the engine's thread.
 */
public final class GroupRoster {
    private static final NavigableSet<Integer> EMPTY = Collections.emptyNavigableSet();

    private final int self;
    private final NavigableSet<Integer> mine = new TreeSet<>();
    private final NavigableSet<Integer> mineView = Collections.unmodifiableNavigableSet(mine);
    private final Map<Integer, NavigableSet<Integer>> others = new HashMap<>();

    /** @param self this node's id: its joins and leaves change {@link #groups()}, never a member list */
    public GroupRoster(int self) {
        this.self = self;
    }

    public int self() {
        return self;
    }

    /** Lists {@code node} in {@code group} (this node: makes it one of its groups); false if it was already. */
    public boolean join(int group, int node) {
        if (node == self) {
            return mine.add(group);
        }
        return others.computeIfAbsent(group, g -> new TreeSet<>()).add(node);
    }

    /** Takes {@code node} out of {@code group}; false if it was not listed. A group left with no one is forgotten. */
    public boolean leave(int group, int node) {
        if (node == self) {
            return mine.remove(group);
        }
        NavigableSet<Integer> listed = others.get(group);
        if (listed == null || !listed.remove(node)) {
            return false;
        }
        if (listed.isEmpty()) {
            others.remove(group);
        }
        return true;
    }

    /** True if this node is in {@code group}. */
    public boolean isMember(int group) {
        return mine.contains(group);
    }

    /** True if {@code node}, another node, is listed in {@code group}. */
    public boolean isListed(int group, int node) {
        NavigableSet<Integer> listed = others.get(group);
        return listed != null && listed.contains(node);
    }

    /** The other members of {@code group}, ascending: a read-only view, empty for a group nobody is listed in. */
    public NavigableSet<Integer> others(int group) {
        NavigableSet<Integer> listed = others.get(group);
        return listed == null ? EMPTY : Collections.unmodifiableNavigableSet(listed);
    }

    /** How many other members {@code group} has. */
    public int othersCount(int group) {
        NavigableSet<Integer> listed = others.get(group);
        return listed == null ? 0 : listed.size();
    }

    /** The groups this node is in, ascending: a read-only view. */
    public NavigableSet<Integer> groups() {
        return mineView;
    }
}
