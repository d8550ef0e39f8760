package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.IntSummaryStatistics;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadPlanTest {

    @Test
    void shouldPutEveryNodeInDegreeDistinctGroups() {
        WorkloadPlan plan = WorkloadPlan.generate(64, 51, 8, 3);

        assertEquals(64, plan.groupsOf().size());
        plan.groupsOf().forEach((node, groups) -> {
            assertEquals(8, groups.size(), "node " + node);
            assertEquals(8, groups.stream().distinct().count(), "node " + node);
            groups.forEach(g -> assertTrue(g >= 1 && g <= 51));
        });
    }

    @Test
    void shouldBalanceGroupSizes() {
        WorkloadPlan plan = WorkloadPlan.generate(8, 6, 3, 1);

        IntSummaryStatistics sizes = plan.members().values().stream().mapToInt(java.util.Set::size)
                .summaryStatistics();
        assertEquals(6, plan.members().size());
        assertEquals(4, sizes.getMin());
        assertEquals(4, sizes.getMax());
        assertEquals(List.of(), plan.degenerateGroups());
    }

    @Test
    void shouldBeDeterministicForASeedAndDifferAcrossSeeds() {
        assertEquals(WorkloadPlan.generate(16, 10, 3, 9).groupsOf(), WorkloadPlan.generate(16, 10, 3, 9).groupsOf());
        assertTrue(!WorkloadPlan.generate(16, 10, 3, 9).groupsOf()
                .equals(WorkloadPlan.generate(16, 10, 3, 10).groupsOf()));
    }

    @Test
    void shouldNameGroupsTooSmallToCheck() {
        WorkloadPlan plan = WorkloadPlan.generate(3, 4, 1, 1);

        assertEquals(4, plan.degenerateGroups().size());
    }

    @Test
    void shouldNameGroupsOfTwoWhereLecCannotHelp() {
        assertEquals(List.of(1, 2, 3, 4), WorkloadPlan.generate(4, 4, 2, 1).groupsWithoutLec());
        assertEquals(List.of(), WorkloadPlan.generate(4, 4, 2, 1).degenerateGroups());
        assertEquals(List.of(), WorkloadPlan.generate(8, 6, 3, 1).groupsWithoutLec(), "groups of 4");
        assertEquals(List.of(), WorkloadPlan.generate(3, 4, 1, 1).groupsWithoutLec(), "groups of 0 and 1 only");
        // 5 nodes in 1 of 2 groups: one group of 3, one of 2.
        assertEquals(1, WorkloadPlan.generate(5, 2, 1, 1).groupsWithoutLec().size());
    }

    @Test
    void shouldRefuseMoreGroupsPerNodeThanExist() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkloadPlan.generate(8, 2, 3, 1));

        assertTrue(e.getMessage().contains("degree 3 exceeds the 2 groups"), e.getMessage());
    }

    @Test
    void shouldRoundTripThroughJson() {
        WorkloadPlan plan = WorkloadPlan.generate(8, 6, 3, 1);

        WorkloadPlan back = WorkloadPlan.fromJson(plan.toJson());

        assertEquals(plan.groupsOf(), back.groupsOf());
        assertEquals(plan.members(), back.members());
        assertEquals(6, back.totalGroups());
        assertEquals(3, back.degree());
    }

    @Test
    void shouldNameAMissingFieldOfAPlanFile() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkloadPlan.fromJson(WorkloadJson.MAPPER.createObjectNode().put("groups", 2)));

        assertEquals("missing field 'groupsOf'", e.getMessage());
    }
}
