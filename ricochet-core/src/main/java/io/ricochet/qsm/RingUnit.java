package io.ricochet.qsm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The members that recover together, as this node sees them, and the rings it runs over them (QSM section 3,
 * "Recovery in QSM is hierarchical"). Today a unit is one group's membership ({@link #members()} is the only place
 * that says so: GMS-computed regions can replace it). A unit of at most {@code partitionSize} members is one flat ring;
 * a larger one is split, in node-id order, into the fewest partitions of at most that size (their sizes differ by at
 * most one), but never into a partition of one member: with a size of 2 and an odd unit, one partition has 3. Each
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
     * Recomputes the partitions after a membership change. Every member computes the same layout from the same
     * membership; while views differ, tokens from a member outside the ring are refused and regeneration restores
     * the rings. What this node knew as a leader is dropped (it described the old partitions); a token held on a ring
     * this node has left is dropped too.
     */
    void relayout(long nowNs) {
        int n = members.size();
        // A partition of one would have no peer to recover from, and its ring would turn with no network hop at all,
        // far faster than the rings it waits for: at most n / 2 partitions.
        partitions = n <= partitionSize ? 1 : Math.min((n + partitionSize - 1) / partitionSize, n / 2);
        leader.clear();
        if (partitions == 1) {
            local.members(members); // flat: the ring is the unit (shared, so an idle group keeps one set)
            upper.members(Collections.emptyNavigableSet());
        } else {
            List<Integer> all = new ArrayList<>(members);
            NavigableSet<Integer> mine = new TreeSet<>();
            NavigableSet<Integer> leaders = new TreeSet<>();
            for (int p = 0; p < partitions; p++) {
                List<Integer> part = all.subList(start(p, n), start(p + 1, n));
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

    /** Index of partition {@code p}'s first member among {@code n}: partitions as even as integers allow. */
    private int start(int p, int n) {
        return (int) ((long) p * n / partitions);
    }
}
