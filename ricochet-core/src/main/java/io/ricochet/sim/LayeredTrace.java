package io.ricochet.sim;

import java.util.List;
import java.util.function.LongToIntFunction;

/**
 * One receiver's run in {@link LayeredSimulation}: its subscription level over time (each change, in order) and
 * its counts, with the time-weighted measures the experiment reports.
 *
 * @param name        the receiver's name
 * @param startNs     when it started (at level 0)
 * @param changes     its level from each time on: (time, level), in time order, the first at {@code startNs}
 * @param fair        the fair level of its bottleneck at a time
 * @param losses      packets it found missing
 * @param burstLosses of those, in bursts
 * @param linkDrops   packets its bottleneck's queue dropped
 * @param received    packets it took
 * @param joins       layers it added
 * @param leaves      layers it dropped
 */
public record LayeredTrace(String name, long startNs, List<Change> changes, LongToIntFunction fair, long losses,
                           long burstLosses, long linkDrops, long received, int joins, int leaves) {
    /** From {@code timeNs} on, the receiver is at {@code level}. */
    public record Change(long timeNs, int level) {
    }

    public LayeredTrace {
        changes = List.copyOf(changes);
    }

    /** Its level at {@code timeNs} (0 before it started). */
    public int levelAt(long timeNs) {
        int level = 0;
        for (Change c : changes) {
            if (c.timeNs() > timeNs) {
                break;
            }
            level = c.level();
        }
        return level;
    }

    /** Its time-weighted mean level over [fromNs, toNs). */
    public double meanLevel(long fromNs, long toNs) {
        return weighted(fromNs, toNs, (t, level) -> level);
    }

    /** The fraction of [fromNs, toNs) it spent at its bottleneck's fair level. */
    public double fractionAtFair(long fromNs, long toNs) {
        return weighted(fromNs, toNs, (t, level) -> level == fair.applyAsInt(t) ? 1 : 0);
    }

    private interface Value {
        double of(long timeNs, int level);
    }

    /** The mean of {@code value} over [fromNs, toNs), sampled at the midpoints of 1 000 equal slices. */
    private double weighted(long fromNs, long toNs, Value value) {
        if (toNs <= fromNs) {
            throw new IllegalArgumentException("empty span [" + fromNs + ", " + toNs + ")");
        }
        int steps = 1000;
        double sum = 0;
        for (int i = 0; i < steps; i++) {
            long t = fromNs + (toNs - fromNs) * i / steps + (toNs - fromNs) / (2 * steps);
            sum += value.of(t, levelAt(t));
        }
        return sum / steps;
    }
}
