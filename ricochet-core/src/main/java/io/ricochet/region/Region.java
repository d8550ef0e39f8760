package io.ricochet.region;

import java.util.List;

/**
 * One region of a {@link RegionPlan}: the nodes ({@code members}, ascending) whose groups among their set's groups
 * are exactly {@code groups} (ascending). Every member is in every one of {@code groups} and in no other group of
 * set {@code set}. The group list names the region: sets share no group, so no two regions of a plan have the same
 * list, and the list does not depend on how the sets are numbered.
 */
public record Region(int set, List<Integer> groups, List<Integer> members) {
    private static final long MIX = 0x9E3779B97F4A7C15L;

    public Region {
        groups = List.copyOf(groups);
        members = List.copyOf(members);
        if (groups.isEmpty() || members.isEmpty()) {
            throw new IllegalArgumentException("a region has at least one group and one member");
        }
    }

    /**
     * A 64-bit hash of the group list, the same in every process and run (the GMS derives the region's multicast
     * address from it): a SplitMix64-style mix of the group ids in order.
     */
    public long key() {
        long h = groups.size();
        for (int g : groups) {
            h = mix(h * MIX + g);
        }
        return h;
    }

    /** Whether this region receives the messages of {@code group}. */
    public boolean covers(int group) {
        return java.util.Collections.binarySearch(groups, group) >= 0;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
