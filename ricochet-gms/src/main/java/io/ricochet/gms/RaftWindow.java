package io.ricochet.gms;

import java.util.ArrayDeque;

/**
 * The requests a partition has handed to its Raft leader and not yet heard back about, bounded by as many requests
 * and bytes as the leader takes ({@link RaftSettings#pendingRequests}, {@link RaftSettings#PENDING_BYTES}): Ratis
 * refuses a request beyond its limits (ResourceUnavailableException), which used to end the session that sent it.
 * A request that finds no room waits here, in arrival order, behind any that wait already (so the log's order is
 * the order requests came in), and is handed on when an earlier one completes. Ratis frees a request's room before
 * it completes its reply, so the leader never holds more than this window. What waits is bounded by the sessions
 * times their requests in flight ({@link SessionPacer}). Used on the replica's event loop thread.
 */
final class RaftWindow {
    private record Waiting(int bytes, Runnable send) {
    }

    private final int maxRequests;
    private final long maxBytes;
    private final GmsCounters counters;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private int requests;
    private long bytes;

    RaftWindow(int maxRequests, long maxBytes, GmsCounters counters) {
        this.maxRequests = maxRequests;
        this.maxBytes = maxBytes;
        this.counters = counters;
    }

    /** Runs {@code send} (which hands a request of {@code size} bytes to Raft) now if there is room, else later. */
    void submit(int size, Runnable send) {
        if (waiting.isEmpty() && fits(size)) {
            take(size, send);
        } else {
            counters.increment(GmsCounter.RAFT_WINDOW_WAITS);
            waiting.add(new Waiting(size, send));
        }
    }

    /** A request of {@code size} bytes that {@link #submit} sent has completed: the next ones may go. */
    void release(int size) {
        requests--;
        bytes -= size;
        while (!waiting.isEmpty() && fits(waiting.peek().bytes())) {
            Waiting next = waiting.poll();
            take(next.bytes(), next.send());
        }
    }

    /** Requests sent and not completed. */
    int inFlight() {
        return requests;
    }

    /** Requests waiting for room. */
    int waiting() {
        return waiting.size();
    }

    private boolean fits(int size) {
        return requests < maxRequests && bytes + size <= maxBytes;
    }

    private void take(int size, Runnable send) {
        requests++;
        bytes += size;
        send.run();
    }
}
