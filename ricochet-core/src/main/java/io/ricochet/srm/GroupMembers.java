package io.ricochet.srm;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/** The members of every group this node has heard of from the GMS, itself included when it joined. */
final class GroupMembers {
    private final int self;
    private final Map<Integer, NavigableSet<Integer>> members = new HashMap<>();

    GroupMembers(int self) {
        this.self = self;
    }

    /** Adds {@code node} to {@code group}; returns true if it was not listed. */
    boolean join(int group, int node) {
        return members.computeIfAbsent(group, g -> new TreeSet<>()).add(node);
    }

    void leave(int group, int node) {
        NavigableSet<Integer> set = members.get(group);
        if (set != null && set.remove(node) && set.isEmpty()) {
            members.remove(group);
        }
    }

    /** True if this node is a member of {@code group}. */
    boolean isMember(int group) {
        return contains(group, self);
    }

    boolean contains(int group, int node) {
        NavigableSet<Integer> set = members.get(group);
        return set != null && set.contains(node);
    }

    /** The members of {@code group} in ascending order (a read-only view). */
    NavigableSet<Integer> of(int group) {
        NavigableSet<Integer> set = members.get(group);
        return set == null ? Collections.emptyNavigableSet() : Collections.unmodifiableNavigableSet(set);
    }
}
