package io.ricochet.daemon;

import io.ricochet.engine.PacketId;
import java.util.LinkedHashMap;
import java.util.Map;

/** Times keyed by packet id (injected drops, discoveries), bounded: the oldest entry goes first. */
final class BoundedTimes {
    private final Map<PacketId, Long> times;

    BoundedTimes(int capacity) {
        this.times = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<PacketId, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    void put(PacketId id, long timeNs) {
        times.putIfAbsent(id, timeNs);
    }

    /** Removes and returns the time of {@code id}, or null. */
    Long take(PacketId id) {
        return times.remove(id);
    }

    int size() {
        return times.size();
    }
}
