package io.ricochet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's counters of one counter set (the {@link Counter}s of the layers a protocol is built from): plain
 * {@code long}s owned by one thread, indexed by id. Publish them to other threads with {@link #snapshot()}.
 */
public final class Counters {
    private final List<Counter> members;
    private final boolean[] member = new boolean[Counter.MAX_ID];
    private final long[] values = new long[Counter.MAX_ID];

    /**
     * @param set the counters this node has; ids must be distinct
     * @throws IllegalArgumentException if two counters share an id or an id is out of range
     */
    public Counters(List<? extends Counter> set) {
        List<Counter> sorted = new ArrayList<>(set);
        sorted.sort(Comparator.comparingInt(Counter::id));
        for (Counter counter : sorted) {
            if (counter.id() <= 0 || counter.id() >= Counter.MAX_ID) {
                throw new IllegalArgumentException("counter " + counter.name() + " has id " + counter.id()
                        + ", outside [1, " + Counter.MAX_ID + ")");
            }
            if (member[counter.id()]) {
                throw new IllegalArgumentException("two counters have id " + counter.id() + ": " + sorted);
            }
            member[counter.id()] = true;
        }
        this.members = Collections.unmodifiableList(sorted);
    }

    /** The union of the given sets (each an enum's {@code values()}). */
    @SafeVarargs
    public static List<Counter> set(Counter[]... sets) {
        List<Counter> all = new ArrayList<>();
        for (Counter[] set : sets) {
            all.addAll(Arrays.asList(set));
        }
        all.sort(Comparator.comparingInt(Counter::id));
        return Collections.unmodifiableList(all);
    }

    public void increment(Counter counter) {
        assert member[counter.id()] : counter.name() + " is not one of " + members;
        values[counter.id()]++;
    }

    public void add(Counter counter, long delta) {
        assert member[counter.id()] : counter.name() + " is not one of " + members;
        values[counter.id()] += delta;
    }

    /** Raises a high-water gauge to {@code value} if that is higher than what it holds. */
    public void max(Counter counter, long value) {
        assert member[counter.id()] : counter.name() + " is not one of " + members;
        values[counter.id()] = Math.max(values[counter.id()], value);
    }

    /** The counter's value; 0 for a counter this set does not have. */
    public long get(Counter counter) {
        return values[counter.id()];
    }

    /** The counters of this set, in id order. */
    public List<Counter> members() {
        return members;
    }

    /** A copy in id order, safe to hand to another thread. */
    public Map<Counter, Long> snapshot() {
        Map<Counter, Long> copy = new LinkedHashMap<>();
        for (Counter counter : members) {
            copy.put(counter, values[counter.id()]);
        }
        return copy;
    }

    /** Adds every counter of {@code other} that this set has into this one (to total a cluster). */
    public void addAll(Counters other) {
        for (Counter counter : members) {
            values[counter.id()] += other.values[counter.id()];
        }
    }
}
