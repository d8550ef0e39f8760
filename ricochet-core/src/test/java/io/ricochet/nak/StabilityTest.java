package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StabilityTest {
    private static final int SELF = 1;
    private static final int G = 5;
    private final Map<Integer, Set<Integer>> members = new HashMap<>();
    private final Stability stability = new Stability(SELF, g -> members.getOrDefault(g, Set.of()));

    @Test
    void aPacketIsStableOnlyOnceEveryOtherMemberResolvedIt() {
        members.put(G, Set.of(SELF, 2, 3));
        assertFalse(stability.isStable(G, 0), "no member reported");
        stability.reported(G, 2, 10);
        assertFalse(stability.isStable(G, 0), "member 3 has not reported");
        stability.reported(G, 3, 4);
        assertTrue(stability.isStable(G, 3));
        assertFalse(stability.isStable(G, 4), "member 3 resolved below 4 only");
        stability.reported(G, 3, 2);
        assertTrue(stability.isStable(G, 3), "an older, reordered report does not move it back");
        assertFalse(stability.isStable(G + 1, 0), "a group whose members this node does not know: kept");
    }

    @Test
    void aNewMemberHoldsPacketsUntilItReportsAndADepartedOneNoLonger() {
        members.put(G, Set.of(SELF, 2));
        stability.reported(G, 2, 10);
        assertTrue(stability.isStable(G, 9));
        members.put(G, Set.of(SELF, 2, 4));
        assertFalse(stability.isStable(G, 9), "member 4 joined and has not reported");
        members.put(G, Set.of(SELF, 2));
        stability.forget(G, 4);
        assertTrue(stability.isStable(G, 9));
        stability.forget(G, 2);
        members.put(G, Set.of(SELF));
        assertTrue(stability.isStable(G, 100), "alone in the group: nobody can ask for it");
        assertEquals(0, stability.groups(), "forgotten members leave no state");
    }
}
