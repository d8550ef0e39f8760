package io.ricochet.srm;

import java.util.Arrays;

/**
 * An indexed binary min-heap of {@link Deadline}s: schedule, reschedule and cancel in O(log n), so a cancelled timer
 * leaves nothing behind and the heap never holds more than the tables that own its items. SRM's timers are random
 * delays, so the FIFO trick of {@code io.ricochet.nak.DeadlineQueue} (fixed delays) does not apply. Deadlines compare
 * wrap-safely ({@code a - b < 0}); ties go to the item scheduled first.
 *
 * @param <T> the kind of item
 */
final class DeadlineHeap<T extends Deadline> {
    private Deadline[] heap = new Deadline[16];
    private int size;
    private long nextOrder;

    /** Schedules {@code item} at {@code deadlineNs}, moving it if it was already scheduled. */
    void schedule(T item, long deadlineNs) {
        if (item.isScheduled()) {
            remove(item);
        }
        item.deadlineNs = deadlineNs;
        item.order = nextOrder++;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = item;
        item.heapIndex = size;
        size++;
        siftUp(item.heapIndex);
    }

    /** Removes {@code item} if it is scheduled. */
    void cancel(T item) {
        if (item.isScheduled()) {
            remove(item);
        }
    }

    /** Removes and returns the earliest item if it is due at {@code nowNs}, else null. */
    @SuppressWarnings("unchecked")
    T pollDue(long nowNs) {
        if (size == 0 || heap[0].deadlineNs - nowNs > 0) {
            return null;
        }
        T head = (T) heap[0];
        remove(head);
        return head;
    }

    /** Earliest deadline, or {@link Long#MAX_VALUE} when empty. */
    long nextDeadlineNs() {
        return size == 0 ? Long.MAX_VALUE : heap[0].deadlineNs;
    }

    int size() {
        return size;
    }

    private void remove(Deadline item) {
        int at = item.heapIndex;
        size--;
        Deadline last = heap[size];
        heap[size] = null;
        item.heapIndex = -1;
        if (at == size) {
            return;
        }
        heap[at] = last;
        last.heapIndex = at;
        siftDown(at);
        siftUp(last.heapIndex);
    }

    private boolean before(Deadline a, Deadline b) {
        long diff = a.deadlineNs - b.deadlineNs;
        return diff != 0 ? diff < 0 : a.order < b.order;
    }

    private void siftUp(int at) {
        Deadline item = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!before(item, heap[parent])) {
                break;
            }
            place(heap[parent], at);
            at = parent;
        }
        place(item, at);
    }

    private void siftDown(int at) {
        Deadline item = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            if (!before(heap[child], item)) {
                break;
            }
            place(heap[child], at);
            at = child;
        }
        place(item, at);
    }

    private void place(Deadline item, int at) {
        heap[at] = item;
        item.heapIndex = at;
    }
}
