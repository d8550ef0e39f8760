package io.ricochet.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The greedy sets and the regions within them: the shapes the paper names, the invariants, determinism. */
class RegionPlannerTest {

    private static List<Integer> range(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().collect(Collectors.toList());
    }

    @Test
    void shouldGiveGroupsWithIdenticalMembershipOneRegion() {
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int g = 1; g <= 50; g++) {
            groups.put(g, range(1, 4));
        }
        RegionPlan plan = new RegionPlanner(5).plan(groups);
        assertEquals(1, plan.sets().size());
        assertEquals(1, plan.regions().size());
        assertEquals(range(1, 50), plan.regions().get(0).groups());
        assertEquals(range(1, 4), plan.regions().get(0).members());
        assertEquals(plan.regionsOf(1), plan.regionsOf(50));
    }

    @Test
    void shouldSplitALargeGroupByTheGroupNestedInIt() {
        RegionPlan plan = new RegionPlanner(5).plan(Map.of(1, range(1, 10), 2, range(1, 5)));
        assertEquals(List.of(List.of(1, 2)), plan.sets());
        assertEquals(List.of(new Region(0, List.of(1), range(6, 10)), new Region(0, List.of(1, 2), range(1, 5))),
                plan.regions());
        assertEquals(2, plan.regionsOf(1).size());
        assertEquals(1, plan.regionsOf(2).size());
    }

    @Test
    void shouldStartANewSetWhenANestedGroupWouldLeaveASmallRegion() {
        RegionPlan plan = new RegionPlanner(6).plan(Map.of(1, range(1, 10), 2, range(1, 5)));
        assertEquals(List.of(List.of(1), List.of(2)), plan.sets());
        assertEquals(1, plan.regionsOf(1).size());
        assertEquals(range(1, 10), plan.regionsOf(1).get(0).members());
    }

    @Test
    void shouldKeepDisjointGroupsInOneSet() {
        RegionPlan plan = new RegionPlanner(6).plan(Map.of(1, range(1, 5), 2, range(6, 10)));
        assertEquals(List.of(List.of(1, 2)), plan.sets());
        assertEquals(2, plan.regions().size());
    }

    @Test
    void shouldTakeAGroupThatBringsNewNodesOnlyWhenTheyAreEnough() {
        // 2 cuts 1's region into 7 and 5 and brings 13 and 14: too few new nodes for a minimum of 5.
        Map<Integer, List<Integer>> groups = Map.of(1, range(1, 12), 2, range(8, 14));
        assertEquals(List.of(List.of(1), List.of(2)), new RegionPlanner(5).plan(groups).sets());
        assertEquals(List.of(List.of(1, 2)), new RegionPlanner(2).plan(groups).sets());
        assertEquals(3, new RegionPlanner(2).plan(groups).regions().size());
    }

    @Test
    void shouldPutAnIrregularOverlapIntoItsOwnSet() {
        // 3 and 1 overlap in two nodes only: adding 3 to 1's set would cut a region of 2.
        Map<Integer, List<Integer>> groups = Map.of(1, range(1, 10), 2, range(1, 10), 3, range(9, 16));
        RegionPlan plan = new RegionPlanner(3).plan(groups);
        assertEquals(List.of(List.of(1, 2), List.of(3)), plan.sets());
        assertEquals(0, plan.setOf(1));
        assertEquals(1, plan.setOf(3));
        assertEquals(-1, plan.setOf(99));
        assertEquals(List.of(), plan.regionsOf(99));
    }

    @Test
    void shouldPutEverythingInOneSetWithMinimumOne() {
        RegionPlan plan = new RegionPlanner(1).plan(Map.of(1, range(1, 10), 2, range(9, 16), 3, List.of(3)));
        assertEquals(1, plan.sets().size());
        // {1}: 1,2,4..8; {1,3}: 3; {1,2}: 9,10; {2}: 11..16
        assertEquals(4, plan.regions().size());
        checkInvariants(Map.of(1, range(1, 10), 2, range(9, 16), 3, List.of(3)), plan);
    }

    @Test
    void shouldHoldTheInvariantsOnRandomGroups() {
        Random random = new Random(16);
        for (int round = 0; round < 50; round++) {
            Map<Integer, List<Integer>> groups = randomGroups(random, 1 + random.nextInt(40), 1 + random.nextInt(60));
            int min = 1 + random.nextInt(6);
            checkInvariants(groups, new RegionPlanner(min).plan(groups));
        }
    }

    @Test
    void shouldNotDependOnTheOrderOfItsInput() {
        Random random = new Random(7);
        Map<Integer, List<Integer>> groups = randomGroups(random, 60, 80);
        RegionPlan plan = new RegionPlanner(3).plan(groups);
        List<Integer> ids = new ArrayList<>(groups.keySet());
        Collections.shuffle(ids, random);
        Map<Integer, List<Integer>> shuffled = new LinkedHashMap<>();
        for (int g : ids) {
            List<Integer> members = new ArrayList<>(groups.get(g));
            Collections.shuffle(members, random);
            members.add(members.get(0)); // a repeated member changes nothing
            shuffled.put(g, members);
        }
        RegionPlan again = new RegionPlanner(3).plan(shuffled);
        assertEquals(plan.sets(), again.sets());
        assertEquals(plan.regions(), again.regions());
    }

    @Test
    void shouldNameRegionsByTheirGroupsAlone() {
        Region a = new Region(0, List.of(1, 2), List.of(5));
        Region b = new Region(3, List.of(1, 2), List.of(6, 7));
        assertEquals(a.key(), b.key());
        assertNotEquals(a.key(), new Region(0, List.of(1, 3), List.of(5)).key());
        assertNotEquals(a.key(), new Region(0, List.of(2, 1), List.of(5)).key());
        assertTrue(a.covers(2));
        assertTrue(!a.covers(3));
    }

    @Test
    void shouldRefuseAMinimumOutOfRangeAndSkipEmptyGroups() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RegionPlanner(0));
        assertTrue(e.getMessage().contains("1..65535"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RegionPlanner(65_536));
        assertThrows(IllegalArgumentException.class, () -> new Region(0, List.of(), List.of(1)));
        RegionPlan plan = new RegionPlanner(2).plan(Map.of(1, List.of(), 2, List.of(4)));
        assertEquals(List.of(List.of(2)), plan.sets());
        assertEquals(List.of(), plan.regionsOf(1));
        assertEquals(0, new RegionPlanner(2).plan(Map.of()).regions().size());
    }

    private static Map<Integer, List<Integer>> randomGroups(Random random, int groupCount, int nodes) {
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int g = 0; g < groupCount; g++) {
            Set<Integer> members = new HashSet<>();
            int size = 1 + random.nextInt(nodes);
            int offset = random.nextInt(nodes);
            for (int i = 0; i < size; i++) {
                // Blocks of consecutive ids with some noise: overlaps that are partly regular.
                members.add(random.nextInt(4) == 0 ? random.nextInt(nodes) : (offset + i) % nodes);
            }
            groups.put(random.nextInt(1000) - 500, new ArrayList<>(members));
        }
        return groups;
    }

    /** Sets partition the groups; in each set every node of a group is in exactly one region of it; labels agree. */
    private static void checkInvariants(Map<Integer, List<Integer>> groups, RegionPlan plan) {
        Set<Integer> inSets = new HashSet<>();
        plan.sets().forEach(s -> s.forEach(g -> assertTrue(inSets.add(g), "group " + g + " in two sets")));
        Set<Integer> nonEmpty = groups.entrySet().stream().filter(e -> !e.getValue().isEmpty())
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertEquals(nonEmpty, inSets);
        for (int g : nonEmpty) {
            Set<Integer> covered = new HashSet<>();
            for (Region r : plan.regionsOf(g)) {
                assertEquals(plan.setOf(g), r.set());
                assertTrue(r.covers(g));
                r.members().forEach(n -> assertTrue(covered.add(n), "node " + n + " in two regions of " + g));
            }
            assertEquals(new HashSet<>(groups.get(g)), covered, "regions of group " + g);
        }
        Set<List<Integer>> names = new HashSet<>();
        for (Region r : plan.regions()) {
            assertTrue(names.add(r.groups()), "two regions named " + r.groups());
            List<Integer> set = plan.sets().get(r.set());
            for (int n : r.members()) {
                List<Integer> mine = set.stream().filter(g -> groups.get(g).contains(n)).sorted()
                        .collect(Collectors.toList());
                assertEquals(r.groups(), mine, "groups of node " + n + " in set " + r.set());
            }
        }
    }
}
