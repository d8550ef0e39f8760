package io.ricochet.latency;

import java.util.LinkedHashMap;
import java.util.Map;

/** Times by key (drops, discoveries), bounded: the oldest entry goes first. */
final class BoundedTimes<K> {
    private final Map<K, Long> times;

    BoundedTimes(int capacity) {
        this.times = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records the first time of {@code key}; a later one does not replace it. */
    void put(K key, long timeNs) {
        times.putIfAbsent(key, timeNs);
    }

    /** The time of {@code key}, or null. */
    Long get(K key) {
        return times.get(key);
    }

    /** Removes and returns the time of {@code key}, or null. */
    Long take(K key) {
        return times.remove(key);
    }

    int size() {
        return times.size();
    }
}
