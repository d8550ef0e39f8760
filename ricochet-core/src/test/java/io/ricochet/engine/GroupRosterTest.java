package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class GroupRosterTest {
    private final GroupRoster roster = new GroupRoster(1);

    @Test
    void shouldKeepThisNodesGroupsApartFromEachGroupsOtherMembers() {
        assertTrue(roster.join(10, 1), "this node joins 10");
        assertTrue(roster.join(10, 3));
        assertTrue(roster.join(10, 2));
        assertTrue(roster.join(20, 5), "a group this node is not in is still listed");

        assertTrue(roster.isMember(10));
        assertFalse(roster.isMember(20));
        assertEquals(List.of(2, 3), List.copyOf(roster.others(10)), "ascending, without this node");
        assertFalse(roster.isListed(10, 1), "this node is never among the others");
        assertTrue(roster.isListed(20, 5));
        assertEquals(2, roster.othersCount(10));
        assertEquals(List.of(10), List.copyOf(roster.groups()));
    }

    @Test
    void shouldSayWhetherAJoinOrALeaveChangedAnything() {
        assertTrue(roster.join(10, 2));
        assertFalse(roster.join(10, 2), "listed already");
        assertTrue(roster.leave(10, 2));
        assertFalse(roster.leave(10, 2), "not listed any more");
        assertFalse(roster.leave(11, 1), "this node was not in 11");
        assertEquals(0, roster.othersCount(10));
        assertTrue(roster.others(10).isEmpty(), "a group left by everyone is forgotten");
    }

    @Test
    void shouldHandOutViewsThatCannotChangeIt() {
        roster.join(10, 2);
        roster.join(10, 1);

        assertThrows(UnsupportedOperationException.class, () -> roster.others(10).add(7));
        assertThrows(UnsupportedOperationException.class, () -> roster.groups().add(11));
        assertThrows(UnsupportedOperationException.class, () -> roster.others(99).add(7));
    }
}
