package io.ricochet.sim;

import java.util.PriorityQueue;

/**
 * The simulator's virtual time: actions at given times, run in time order, ties in scheduling order, so runs are
 * deterministic. Shared by the whole-run {@link Simulator} and the step-by-step {@link ScenarioNetwork}.
 */
final class EventQueue {
    private record Event(long timeNs, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(timeNs, o.timeNs);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long seq;
    private long nowNs;

    void at(long timeNs, Runnable action) {
        queue.add(new Event(timeNs, seq++, action));
    }

    boolean step() {
        Event next = queue.poll();
        if (next == null) {
            return false;
        }
        nowNs = Math.max(nowNs, next.timeNs());
        next.action().run();
        return true;
    }

    void runUntil(long timeNs) {
        while (!queue.isEmpty() && queue.peek().timeNs() <= timeNs) {
            step();
        }
        nowNs = Math.max(nowNs, timeNs);
    }

    long nowNs() {
        return nowNs;
    }
}
