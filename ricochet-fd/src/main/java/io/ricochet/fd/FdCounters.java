package io.ricochet.fd;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The values of the {@link FdCounter}s. Written by the server's event loop, readable from any thread (the stats log
 * line, tests): at a few datagrams per target and interval, atomic increments cost nothing that matters.
 */
public final class FdCounters {
    private static final FdCounter[] ALL = FdCounter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);

    public void increment(FdCounter counter) {
        values.incrementAndGet(counter.ordinal());
    }

    /** Adds {@code delta} ({@code >= 0}) to {@code counter}. */
    public void add(FdCounter counter, long delta) {
        values.addAndGet(counter.ordinal(), delta);
    }

    public long get(FdCounter counter) {
        return values.get(counter.ordinal());
    }

    /** A copy of every counter's value, in declaration order. */
    public Map<FdCounter, Long> snapshot() {
        Map<FdCounter, Long> copy = new EnumMap<>(FdCounter.class);
        for (FdCounter counter : ALL) {
            copy.put(counter, get(counter));
        }
        return copy;
    }

    /** {@code name=value} for every counter, space-separated: the periodic log line. */
    @Override
    public String toString() {
        StringBuilder line = new StringBuilder();
        for (FdCounter counter : ALL) {
            line.append(line.length() == 0 ? "" : " ").append(counter.name().toLowerCase(Locale.ROOT)).append('=')
                    .append(get(counter));
        }
        return line.toString();
    }
}
