package io.ricochet.bench.load;

import java.util.ArrayList;
import java.util.List;

/**
 * A load generator's packets sent so far, read every {@code intervalNs} while it sends, with the wall-clock time of
 * each reading: what an experiment lines up with the receiver's own readings to know the offered load over time.
 * Keeps at most {@code maxSamples} readings (later ones are not kept, and {@link #truncated()} says so), so a long
 * run cannot grow it without bound. Used on the send loop's thread only, read once sending is over.
 */
final class SendProgress {
    /** One reading: milliseconds since the epoch and packets sent by then. */
    record Sample(long epochMillis, long sent) {
    }

    private final long intervalNs;
    private final int maxSamples;
    private final List<Sample> samples = new ArrayList<>();
    private long nextNs = Long.MIN_VALUE;
    private boolean truncated;

    SendProgress(long intervalNs, int maxSamples) {
        this.intervalNs = intervalNs;
        this.maxSamples = maxSamples;
    }

    /** Whether a reading is due at {@code nowNs}: the first one, or {@code intervalNs} after the last. */
    boolean due(long nowNs) {
        return nextNs == Long.MIN_VALUE || nowNs - nextNs >= 0;
    }

    /** Records a reading (due or not: the start and the end are always noted). */
    void record(long nowNs, long epochMillis, long sent) {
        nextNs = nowNs + intervalNs;
        if (samples.size() >= maxSamples) {
            truncated = true;
            return;
        }
        samples.add(new Sample(epochMillis, sent));
    }

    List<Sample> samples() {
        return List.copyOf(samples);
    }

    boolean truncated() {
        return truncated;
    }
}
