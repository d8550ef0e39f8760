package io.ricochet.fd;

/**
 * The last {@code capacity} inter-arrival intervals of one member's heartbeats, with their mean and (population)
 * standard deviation: the distribution phi-accrual fits to the member's past behaviour. Adding a sample beyond the
 * capacity forgets the oldest, so the estimate follows a member whose load changes.
 *
 * <p>Mean and deviation are recomputed over the window when first asked after a change (two passes, so no
 * cancellation error builds up over millions of samples); a detector asks once per member and round, so the cost
 * is a few hundred additions per member every interval.
 */
final class HeartbeatHistory {
    /** Enough samples for a stable estimate, few enough to follow a change of load within tens of seconds. */
    static final int DEFAULT_CAPACITY = 200;

    private final long[] samples;
    private int size;
    private int next;
    private boolean stale = true;
    private double mean;
    private double stdDev;

    /**
     * @param capacity the most intervals kept, {@code >= 1}
     * @param firstSampleNs the estimate the history starts with (the heartbeat interval): until real intervals
     *     arrive, the member is expected to answer once per round
     */
    HeartbeatHistory(int capacity, long firstSampleNs) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.samples = new long[capacity];
        add(firstSampleNs);
    }

    /** Records one interval between consecutive heartbeat arrivals, {@code >= 0}. */
    void add(long intervalNs) {
        if (intervalNs < 0) {
            throw new IllegalArgumentException("interval must not be negative: " + intervalNs);
        }
        samples[next] = intervalNs;
        next = (next + 1) % samples.length;
        size = Math.min(size + 1, samples.length);
        stale = true;
    }

    int size() {
        return size;
    }

    double meanNs() {
        refresh();
        return mean;
    }

    double stdDevNs() {
        refresh();
        return stdDev;
    }

    private void refresh() {
        if (!stale) {
            return;
        }
        double sum = 0;
        for (int i = 0; i < size; i++) {
            sum += samples[i];
        }
        mean = sum / size;
        double squares = 0;
        for (int i = 0; i < size; i++) {
            double d = samples[i] - mean;
            squares += d * d;
        }
        stdDev = Math.sqrt(squares / size);
        stale = false;
    }
}
