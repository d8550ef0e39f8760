package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a ring unit is split into partitions and who leads them, as every member computes it. */
class RingUnitTest {
    private static RingUnit unit(int self, int partitionSize, int... members) {
        RingUnit u = new RingUnit(7, self, partitionSize);
        for (int m : members) {
            u.add(m);
        }
        u.relayout(0);
        return u;
    }

    @Test
    void aUnitNoLargerThanAPartitionIsOneFlatRing() {
        RingUnit u = unit(30, 5, 10, 20, 30, 40, 50);
        assertEquals(1, u.partitions());
        assertFalse(u.split());
        assertEquals(Set.of(10, 20, 30, 40, 50), u.local.members());
        assertTrue(u.upper.members().isEmpty(), "no leaders' ring");
        assertFalse(u.leadsPartition());
    }

    @Test
    void aLargerUnitIsSplitIntoTheFewestEvenPartitionsInIdOrder() {
        int[] eleven = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        assertEquals(List.of(1, 2, 3), List.copyOf(unit(2, 5, eleven).local.members()), "3, 4, 4 members");
        assertEquals(List.of(4, 5, 6, 7), List.copyOf(unit(7, 5, eleven).local.members()));
        assertEquals(List.of(8, 9, 10, 11), List.copyOf(unit(8, 5, eleven).local.members()));
        RingUnit leader = unit(4, 5, eleven);
        assertEquals(3, leader.partitions());
        assertTrue(leader.leadsPartition());
        assertEquals(List.of(1, 4, 8), List.copyOf(leader.upper.members()), "the partitions' first members");
        assertTrue(unit(5, 5, eleven).upper.members().isEmpty(), "a follower is not on the leaders' ring");
    }

    @Test
    void noPartitionHasASingleMemberAndALossWaitsAsLongAsInOneFlatRing() {
        RingUnit first = unit(1, 2, 1, 2, 3, 4, 5);
        assertEquals(2, first.partitions(), "five in partitions of 2 would leave one alone: 2 and 3");
        assertEquals(List.of(1, 2), List.copyOf(first.local.members()));
        assertEquals(List.of(3, 4, 5), List.copyOf(unit(4, 2, 1, 2, 3, 4, 5).local.members()));
        assertEquals(1, unit(1, 2, 1, 2, 3).partitions(), "three stay one flat ring");
        assertEquals(8, unit(1, 2, 1, 2, 3).giveUpRounds(8));
        assertEquals(8 * 3, first.giveUpRounds(8), "rounds of 2 members, as long as 8 rounds of 5");
        assertEquals(8 * 2, unit(4, 2, 1, 2, 3, 4, 5).giveUpRounds(8), "rounds of 3 members");
    }

    @Test
    void aJoinThatMovesTheBoundariesDropsWhatALeaderKnewAndATokenOfARingItLeft() {
        RingUnit u = unit(6, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertTrue(u.leadsPartition());
        u.upper.take(new Token(7, 1, 0, 1), 0, 1000);
        u.leader.relays.add(new LeaderState.Key(7, 0, 8));
        u.add(11);
        u.relayout(5);
        assertFalse(u.upper.isMember(), "node 6 no longer leads: partitions 1-3, 4-7, 8-11");
        assertNull(u.upper.held, "the leaders' token it held is dropped");
        assertTrue(u.leader.relays.isEmpty(), "what it knew as a leader described the old partitions");
    }

    private static RingUnit unitInRegions(int self, int partitionSize, List<List<Integer>> regions, int... members) {
        RingUnit u = new RingUnit(7, self, partitionSize);
        for (int m : members) {
            u.add(m);
        }
        u.regions(regions);
        u.relayout(0);
        return u;
    }

    @Test
    void noPartitionSpansTwoRegionsAndARegionLargerThanAPartitionIsSplitOnItsOwn() {
        List<List<Integer>> regions = List.of(List.of(1, 2, 3, 4, 5, 6, 7), List.of(8, 9));
        int[] nine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        assertEquals(List.of(1, 2), List.copyOf(unitInRegions(1, 3, regions, nine).local.members()));
        assertEquals(List.of(5, 6, 7), List.copyOf(unitInRegions(6, 3, regions, nine).local.members()));
        assertEquals(List.of(8, 9), List.copyOf(unitInRegions(9, 3, regions, nine).local.members()));
        assertEquals(List.of(1, 3, 5, 8), List.copyOf(unitInRegions(1, 3, regions, nine).upper.members()));
        // Without regions, partitions of at most 3: {1,2,3} {4,5,6} {7,8,9}.
        assertEquals(List.of(7, 8, 9), List.copyOf(unit(9, 3, nine).local.members()));
    }

    @Test
    void aRegionWithOneMemberOfTheGroupJoinsANeighbourAndUnlistedMembersFormTheirOwnBlock() {
        List<List<Integer>> regions = List.of(List.of(4), List.of(1, 2), List.of(3, 5));
        RingUnit u = unitInRegions(4, 5, regions, 1, 2, 3, 4, 5, 6, 7);
        // Blocks by first member: {1,2}, {3,5}, {4} (joins {3,5}), and the unlisted {6,7}.
        assertEquals(List.of(3, 4, 5), List.copyOf(u.local.members()));
        assertEquals(3, u.partitions());
        assertEquals(List.of(6, 7), List.copyOf(unitInRegions(6, 5, regions, 1, 2, 3, 4, 5, 6, 7).local.members()));
        // Regions that leave every partition whole keep the unit flat.
        assertEquals(1, unitInRegions(1, 5, List.of(List.of(1, 2, 3)), 1, 2, 3).partitions());
    }
}
