package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GroupListTest {
    @Test
    void shouldParseRangesAndLists() {
        assertArrayEquals(new int[] {100, 101, 102, 103}, GroupList.parse("100..103").ids());
        assertArrayEquals(new int[] {1, 2, 7}, GroupList.parse("1, 2,7").ids());
        assertArrayEquals(new int[] {5, 6, 7, 200, -3}, GroupList.parse("5..7,200,-3").ids());
        assertEquals(16, GroupList.parse("100..115").size());
    }

    @Test
    void shouldPrintTheShortestForm() {
        assertEquals("100..115", GroupList.parse("100..115").toString());
        assertEquals("1,2,7..9,20", GroupList.of(1, 2, 7, 8, 9, 20).toString());
        assertEquals(GroupList.parse("1,2,3"), GroupList.parse("1..3"));
    }

    @Test
    void shouldRefuseBadLists() {
        for (String bad : new String[] {"", " ", "5..1", "1,,2", "a", "1..x", "1,2,1", "1..3,2", "0..70000",
            "99999999999"}) {
            assertThrows(IllegalArgumentException.class, () -> GroupList.parse(bad), bad);
        }
    }
}
