package io.ricochet.gms;

import java.util.concurrent.atomic.AtomicLongArray;

/** The {@link GmsCounter}s of one partition: written on its event loop, readable from any thread. */
final class GmsCounters {
    private final AtomicLongArray values = new AtomicLongArray(GmsCounter.values().length);

    void increment(GmsCounter counter) {
        values.incrementAndGet(counter.ordinal());
    }

    long get(GmsCounter counter) {
        return values.get(counter.ordinal());
    }

    /** {@code label=value} for every counter, space-separated. */
    String line() {
        StringBuilder sb = new StringBuilder();
        for (GmsCounter c : GmsCounter.values()) {
            sb.append(sb.length() == 0 ? "" : " ").append(c.label()).append('=').append(get(c));
        }
        return sb.toString();
    }
}
