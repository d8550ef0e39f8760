package io.ricochet.srm;

/**
 * Something with at most one pending deadline in a {@link DeadlineHeap}: a loss's request timer, a repair timer, a
 * group's session timer. The heap owns the fields; a subclass only reads {@link #deadlineNs()}.
 */
abstract class Deadline {
    long deadlineNs;
    /** Position in the heap, or -1 when not scheduled. */
    int heapIndex = -1;
    /** Scheduling order: breaks ties between equal deadlines, so runs are deterministic. */
    long order;

    long deadlineNs() {
        return deadlineNs;
    }

    boolean isScheduled() {
        return heapIndex >= 0;
    }
}
