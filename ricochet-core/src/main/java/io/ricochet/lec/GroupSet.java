package io.ricochet.lec;

import java.util.Arrays;

/**
 * An immutable, sorted set of group ids: the label of a region ("abc" in the paper's Figure 5) or of a repair bin.
 */
public final class GroupSet implements Comparable<GroupSet> {
    private final int[] groups;
    private final int hash;

    private GroupSet(int[] sortedDistinct) {
        this.groups = sortedDistinct;
        this.hash = Arrays.hashCode(sortedDistinct);
    }

    /** A set of the given ids (duplicates removed). */
    public static GroupSet of(int... groups) {
        return new GroupSet(Arrays.stream(groups).distinct().sorted().toArray());
    }

    public int size() {
        return groups.length;
    }

    public int get(int i) {
        return groups[i];
    }

    public boolean contains(int group) {
        return Arrays.binarySearch(groups, group) >= 0;
    }

    public boolean isEmpty() {
        return groups.length == 0;
    }

    /** This set without the groups for which {@code keep} is false, in order. */
    public GroupSet retain(java.util.function.IntPredicate keep) {
        return new GroupSet(Arrays.stream(groups).filter(keep).toArray());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroupSet && Arrays.equals(groups, ((GroupSet) o).groups);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** Larger sets first, then lexicographic: the order Algorithm 1 walks regions in. */
    @Override
    public int compareTo(GroupSet o) {
        if (groups.length != o.groups.length) {
            return Integer.compare(o.groups.length, groups.length);
        }
        return Arrays.compare(groups, o.groups);
    }

    @Override
    public String toString() {
        return Arrays.toString(groups);
    }
}
