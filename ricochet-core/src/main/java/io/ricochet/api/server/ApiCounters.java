package io.ricochet.api.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/** The {@link ApiCounter}s, updated from the I/O thread and the daemon's engine thread alike. */
final class ApiCounters {
    private static final ApiCounter[] ALL = ApiCounter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);

    void increment(ApiCounter counter) {
        values.incrementAndGet(counter.ordinal());
    }

    void add(ApiCounter counter, long delta) {
        values.addAndGet(counter.ordinal(), delta);
    }

    void decrement(ApiCounter counter) {
        values.decrementAndGet(counter.ordinal());
    }

    /** Increments a gauge unless it is already at {@code limit} or above; whether it did. */
    boolean incrementIfBelow(ApiCounter counter, long limit) {
        int index = counter.ordinal();
        while (true) {
            long value = values.get(index);
            if (value >= limit) {
                return false;
            }
            if (values.compareAndSet(index, value, value + 1)) {
                return true;
            }
        }
    }

    /** Raises a high-water gauge to {@code value} if it is higher. */
    void raise(ApiCounter counter, long value) {
        values.accumulateAndGet(counter.ordinal(), value, Math::max);
    }

    long get(ApiCounter counter) {
        return values.get(counter.ordinal());
    }

    /** A snapshot keyed by counter name, in id order. */
    Map<String, Long> snapshot() {
        Map<String, Long> copy = new LinkedHashMap<>();
        for (ApiCounter counter : ALL) {
            copy.put(counter.name(), values.get(counter.ordinal()));
        }
        return copy;
    }
}
