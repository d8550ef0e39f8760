package io.ricochet.qsm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The members that recover together, as this node sees them, and the rings it runs over them (QSM section 3,
 * "Recovery in QSM is hierarchical"): one group's membership. A unit of at most {@code partitionSize} members is one
 * flat ring; a larger one is split, in node-id order, into the fewest partitions of at most that size (their sizes
 * differ by at most one), but never into a partition of one member: with a size of 2 and an odd unit, one partition
 * has 3. When the GMS gives the group regions ({@link #regions(List)}), no partition spans two regions: each region's
 * members are split on their own (a region with one member of the group joins a neighbouring partition). Each
 * partition runs its own ring ({@link #local}); the first member of each partition leads it and takes part in the
 * ring of the partition leaders ({@link #upper}), whose token carries each partition's aggregate.
 */
final class RingUnit {
    final int group;
    private final int self;
    private final int partitionSize;
    private final NavigableSet<Integer> members = new TreeSet<>();
    /** This node's partition's ring, or the whole unit's when it is not split. */
    final Ring local;
    /** The ring of the partition leaders: empty unless the unit is split and this node leads a partition. */
    final Ring upper;
    /** Both rings, for the loops that visit each. */
    final Ring[] rings;
    /** What this node knows as a partition leader (unused otherwise). */
    final LeaderState leader = new LeaderState();
    private int partitions = 1;
    /** The group's members by GMS region ({@link #regions(List)}); empty: no regions, one block. */
    private List<NavigableSet<Integer>> regions = List.of();

    RingUnit(int group, int self, int partitionSize) {
        this.group = group;
        this.self = self;
        this.partitionSize = partitionSize;
        this.local = new Ring(group, 0, self);
        this.upper = new Ring(group, 1, self);
        this.rings = new Ring[] {local, upper};
    }

    /** The members of the unit: today the group's members. Change it only through {@link #add} and {@link #remove}. */
    NavigableSet<Integer> members() {
        return members;
    }

    boolean isMember() {
        return members.contains(self);
    }

    /** Adds {@code node}; returns whether it was new. The caller then calls {@link #relayout}. */
    boolean add(int node) {
        return members.add(node);
    }

    void remove(int node) {
        members.remove(node);
    }

    /** Whether the unit is split into partitions (so a leaders' ring exists). */
    boolean split() {
        return partitions > 1;
    }

    /** How many partitions the unit has (1 when flat). */
    int partitions() {
        return partitions;
    }

    /** Whether this node leads its partition of a split unit. */
    boolean leadsPartition() {
        return split() && local.isLeader();
    }

    /**
     * Rounds of this member's partition ring a loss may wait before it is reported lost: {@code recoveryRounds}
     * rounds of the whole unit, as a flat ring's budget, counted in the shorter rounds of the partition.
     */
    int giveUpRounds(int recoveryRounds) {
        int ring = Math.max(1, local.members().size());
        return recoveryRounds * ((members.size() + ring - 1) / ring);
    }

    /** Whether {@code node} is in this node's partition. */
    boolean inPartition(int node) {
        return local.members().contains(node);
    }

    /**
     * The GMS's regions of the group (QSM section 3: partitions subdivide regions), each a list of members; empty:
     * none. Returns whether they changed, so the caller relays out only then (a relayout drops what a leader knew).
     */
    boolean regions(List<List<Integer>> regions) {
        List<NavigableSet<Integer>> sets = new ArrayList<>();
        for (List<Integer> region : regions) {
            sets.add(new TreeSet<>(region));
        }
        if (sets.equals(this.regions)) {
            return false;
        }
        this.regions = sets;
        return true;
    }

    /**
     * Recomputes the partitions after a membership or region change. Every member computes the same layout from
     * the same membership and regions; while views differ, tokens from a member outside the ring are refused and
     * regeneration restores the rings. What this node knew as a leader is dropped (it described the old partitions);
     * a token held on a ring this node has left is dropped too.
     */
    void relayout(long nowNs) {
        List<List<Integer>> parts = new ArrayList<>();
        for (List<Integer> block : blocks()) {
            parts.addAll(split(block));
        }
        mergeLoneMembers(parts);
        partitions = Math.max(1, parts.size());
        leader.clear();
        if (partitions == 1) {
            local.members(members); // flat: the ring is the unit (shared, so an idle group keeps one set)
            upper.members(Collections.emptyNavigableSet());
        } else {
            NavigableSet<Integer> mine = new TreeSet<>();
            NavigableSet<Integer> leaders = new TreeSet<>();
            for (List<Integer> part : parts) {
                if (part.contains(self)) {
                    mine.addAll(part);
                }
                leaders.add(part.get(0));
            }
            local.members(mine);
            upper.members(leaders.contains(self) ? leaders : Collections.emptyNavigableSet());
        }
        for (Ring ring : rings) {
            if (ring.held != null && !ring.isMember()) {
                ring.release(nowNs);
            }
        }
    }

    /**
     * The members in blocks no partition may span: one per GMS region (its members in the unit, ascending), in the
     * order of their first members, plus one of the members no region lists (a join the region view has not caught
     * up with); without regions, the whole unit.
     */
    private List<List<Integer>> blocks() {
        if (regions.isEmpty()) {
            return members.isEmpty() ? List.of() : List.of(new ArrayList<>(members));
        }
        List<List<Integer>> blocks = new ArrayList<>();
        List<Integer> unplaced = new ArrayList<>(members);
        for (NavigableSet<Integer> region : regions) {
            List<Integer> block = new ArrayList<>();
            for (int node : region) {
                if (members.contains(node)) {
                    block.add(node);
                }
            }
            unplaced.removeAll(block);
            if (!block.isEmpty()) {
                blocks.add(block);
            }
        }
        if (!unplaced.isEmpty()) {
            blocks.add(unplaced);
        }
        blocks.sort(Comparator.comparing(b -> b.get(0)));
        return blocks;
    }

    /**
     * A block in the fewest partitions of at most {@code partitionSize}, as even as integers allow, and never one of
     * a single member while the block has more (a partition of one would have no peer to recover from, and its ring
     * would turn with no network hop at all, far faster than the rings it waits for): at most m / 2 partitions.
     */
    private List<List<Integer>> split(List<Integer> block) {
        int m = block.size();
        int count = m <= partitionSize ? 1 : Math.min((m + partitionSize - 1) / partitionSize, m / 2);
        List<List<Integer>> out = new ArrayList<>(count);
        for (int p = 0; p < count; p++) {
            out.add(block.subList((int) ((long) p * m / count), (int) ((long) (p + 1) * m / count)));
        }
        return out;
    }

    /**
     * A region with one member of the unit would make a partition of one: it joins the partition before it (the
     * next, if it is first), so it still has a peer.
     */
    private static void mergeLoneMembers(List<List<Integer>> parts) {
        for (int i = 0; i < parts.size() && parts.size() > 1; i++) {
            if (parts.get(i).size() == 1) {
                int into = i > 0 ? i - 1 : 1;
                List<Integer> merged = new ArrayList<>(parts.get(into));
                merged.addAll(parts.get(i));
                Collections.sort(merged);
                parts.set(into, merged);
                parts.remove(i);
                i = -1;   // indexes moved: look again from the start
            }
        }
    }
}
