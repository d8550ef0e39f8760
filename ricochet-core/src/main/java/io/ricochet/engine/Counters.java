package io.ricochet.engine;

import java.util.EnumMap;
import java.util.Map;

/**
 * Plain {@code long} counters owned by one thread. Publish them to other threads with {@link #snapshot()}.
 */
public final class Counters {
    private static final RicochetCounter[] ALL = RicochetCounter.values();
    private final long[] values = new long[ALL.length];

    public void increment(RicochetCounter counter) {
        values[counter.ordinal()]++;
    }

    public void add(RicochetCounter counter, long delta) {
        values[counter.ordinal()] += delta;
    }

    public long get(RicochetCounter counter) {
        return values[counter.ordinal()];
    }

    /** A copy, safe to hand to another thread. */
    public Map<RicochetCounter, Long> snapshot() {
        Map<RicochetCounter, Long> copy = new EnumMap<>(RicochetCounter.class);
        for (RicochetCounter counter : ALL) {
            copy.put(counter, values[counter.ordinal()]);
        }
        return copy;
    }

    /** Adds every counter of {@code other} into this one (to total a cluster). */
    public void addAll(Counters other) {
        for (int i = 0; i < values.length; i++) {
            values[i] += other.values[i];
        }
    }
}
