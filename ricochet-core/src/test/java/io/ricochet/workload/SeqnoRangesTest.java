package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SeqnoRangesTest {

    @Test
    void shouldKeepAGaplessStreamAsOneRange() {
        SeqnoRanges set = new SeqnoRanges();
        for (long s = 0; s < 1000; s++) {
            assertTrue(set.add(s));
        }

        assertEquals(1, set.ranges().size());
        assertEquals(1000, set.count());
        assertEquals("[0..999]", set.toString());
    }

    @Test
    void shouldReportASecondAddAsADuplicate() {
        SeqnoRanges set = new SeqnoRanges();

        assertTrue(set.add(5));
        assertFalse(set.add(5));
        assertEquals(1, set.count());
    }

    @Test
    void shouldMergeRangesThatTouchOrOverlap() {
        SeqnoRanges set = new SeqnoRanges();
        set.addRange(10, 20);
        set.addRange(30, 40);
        set.addRange(0, 5);

        set.addRange(21, 29);
        assertEquals("[0..5, 10..40]", set.toString());
        set.addRange(3, 12);
        assertEquals("[0..40]", set.toString());
        assertEquals(41, set.count());
        set.addRange(100, 100);
        set.addRange(0, 200);
        assertEquals("[0..200]", set.toString());
        assertEquals(201, set.count());
    }

    @Test
    void shouldAgreeWithASetOfLongsOnRandomInput() {
        SplittableRandom random = new SplittableRandom(7);
        SeqnoRanges set = new SeqnoRanges();
        TreeSet<Long> reference = new TreeSet<>();
        for (int i = 0; i < 5000; i++) {
            long first = random.nextLong(2000);
            long last = first + random.nextLong(random.nextBoolean() ? 1 : 20);
            set.addRange(first, last);
            for (long s = first; s <= last; s++) {
                reference.add(s);
            }
            assertEquals(reference.size(), set.count());
        }
        for (long s = -1; s < 2100; s++) {
            assertEquals(reference.contains(s), set.contains(s), "seqno " + s);
        }
    }

    @Test
    void shouldCountCommonSeqnos() {
        SeqnoRanges sent = ranges(0, 99);
        SeqnoRanges got = ranges(0, 9);
        got.addRange(20, 29);
        got.addRange(95, 120);

        assertEquals(25, got.countCommon(sent));
        assertEquals(25, sent.countCommon(got));
        assertEquals(0, ranges(200, 300).countCommon(sent));
    }

    @Test
    void shouldListTheFirstSeqnosTheOtherSetLacks() {
        SeqnoRanges sent = ranges(0, 99);
        SeqnoRanges got = ranges(0, 9);
        got.addRange(12, 98);

        assertEquals(List.of(10L, 11L, 99L), sent.firstNotIn(got, 10));
        assertEquals(List.of(10L), sent.firstNotIn(got, 1));
        assertEquals(List.of(), got.firstNotIn(sent, 10));
    }

    @Test
    void shouldRefuseAnEmptyRange() {
        assertThrows(IllegalArgumentException.class, () -> new SeqnoRanges().addRange(5, 4));
    }

    private static SeqnoRanges ranges(long first, long last) {
        SeqnoRanges set = new SeqnoRanges();
        set.addRange(first, last);
        return set;
    }
}
