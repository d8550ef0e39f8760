package io.ricochet.srm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The indexed deadline heap against a sorted-list reference, including cancels, moves and wrap-around time. */
class DeadlineHeapTest {
    /** A test item. */
    static final class Item extends Deadline {
        final int name;

        Item(int name) {
            this.name = name;
        }
    }

    @Test
    void shouldPollInDeadlineOrderAndTiesInSchedulingOrder() {
        DeadlineHeap<Item> heap = new DeadlineHeap<>();
        Item a = new Item(1);
        Item b = new Item(2);
        Item c = new Item(3);
        heap.schedule(a, 30);
        heap.schedule(b, 10);
        heap.schedule(c, 10);
        assertEquals(10, heap.nextDeadlineNs());
        assertNull(heap.pollDue(9));
        assertSame(b, heap.pollDue(10));
        assertSame(c, heap.pollDue(10));
        assertNull(heap.pollDue(29));
        assertSame(a, heap.pollDue(100));
        assertEquals(Long.MAX_VALUE, heap.nextDeadlineNs());
        assertFalse(a.isScheduled());
    }

    @Test
    void shouldCompareDeadlinesAcrossTheWrapOfLong() {
        DeadlineHeap<Item> heap = new DeadlineHeap<>();
        Item late = new Item(1);
        Item early = new Item(2);
        heap.schedule(late, Long.MIN_VALUE + 5); // just after the wrap
        heap.schedule(early, Long.MAX_VALUE - 5);
        assertSame(early, heap.pollDue(Long.MAX_VALUE));
        assertNull(heap.pollDue(Long.MAX_VALUE));
        assertSame(late, heap.pollDue(Long.MIN_VALUE + 5));
    }

    @Test
    void shouldMatchASortedReferenceUnderRandomScheduleMoveAndCancel() {
        SplittableRandom rnd = new SplittableRandom(42);
        DeadlineHeap<Item> heap = new DeadlineHeap<>();
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            items.add(new Item(i));
        }
        List<Item> reference = new ArrayList<>();
        Comparator<Item> order = Comparator.comparingLong((Item i) -> i.deadlineNs).thenComparingLong(i -> i.order);
        long now = 0;
        for (int step = 0; step < 50_000; step++) {
            Item item = items.get(rnd.nextInt(items.size()));
            switch (rnd.nextInt(3)) {
                case 0:
                    heap.schedule(item, now + rnd.nextInt(1000));
                    reference.remove(item);
                    reference.add(item);
                    break;
                case 1:
                    heap.cancel(item);
                    reference.remove(item);
                    break;
                default:
                    now += rnd.nextInt(50);
                    reference.sort(order);
                    for (Item due = heap.pollDue(now); due != null; due = heap.pollDue(now)) {
                        assertSame(reference.remove(0), due, "step " + step);
                    }
                    break;
            }
            assertEquals(reference.size(), heap.size());
            reference.sort(order);
            assertEquals(reference.isEmpty() ? Long.MAX_VALUE : reference.get(0).deadlineNs, heap.nextDeadlineNs());
        }
    }
}
