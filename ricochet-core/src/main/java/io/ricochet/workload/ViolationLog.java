package io.ricochet.workload;

import java.util.ArrayList;
import java.util.List;

/** A count of violations of one kind and the first {@link #SAMPLES} of them. Not thread-safe. */
public final class ViolationLog {
    /** How many violations are kept as examples. */
    public static final int SAMPLES = 10;

    private final List<Violation> first = new ArrayList<>();
    private long count;

    /** Counts {@code violation}; keeps it if fewer than {@link #SAMPLES} are kept. */
    public void add(Violation violation) {
        count++;
        if (first.size() < SAMPLES) {
            first.add(violation);
        }
    }

    /** Adds {@code n} violations of which only {@code examples} (possibly fewer than n) are known. */
    public void addAll(long n, List<Violation> examples) {
        count += n;
        for (Violation v : examples) {
            if (first.size() >= SAMPLES) {
                break;
            }
            first.add(v);
        }
    }

    public long count() {
        return count;
    }

    /** The examples kept, in the order they were added. */
    public List<Violation> first() {
        return List.copyOf(first);
    }

    /** A copy. */
    public ViolationLog copy() {
        ViolationLog copy = new ViolationLog();
        copy.addAll(count, first);
        return copy;
    }
}
