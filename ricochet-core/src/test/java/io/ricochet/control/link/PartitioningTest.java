package io.ricochet.control.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PartitioningTest {

    @Test
    void shouldOwnGroupsByFloorModIncludingNegativeIds() {
        Partitioning p1 = new Partitioning(1, 3);
        assertTrue(p1.owns(1));
        assertTrue(p1.owns(4));
        assertTrue(p1.owns(-2));
        assertFalse(p1.owns(-1));
        assertEquals(2, p1.ownerOf(-1));
        assertEquals(2, Partitioning.partitionOf(Integer.MIN_VALUE + 1, 3));
    }

    @Test
    void shouldRefuseAnIndexOutsideTheCount() {
        assertThrows(IllegalArgumentException.class, () -> new Partitioning(2, 2));
        assertThrows(IllegalArgumentException.class, () -> new Partitioning(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> new Partitioning(0, 0));
    }
}
