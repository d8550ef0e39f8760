package io.ricochet.pbcast;

import io.ricochet.engine.PacketId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Messages known to exist (from a sequence gap, a digest or an info message) that this member has not received, in
 * discovery order, each with the round it was discovered in. A missing message is sought in the
 * round it was discovered in and the {@code stable-threshold} rounds after, as long as holders keep it (a holder
 * gossips a message in the stable-threshold rounds after the one it arrived in), then given up.
 */
final class MissingTable {
    /** One missing message. */
    record Missing(PacketId id, long round, long discoveredNs) {
    }

    private final Map<PacketId, Missing> byId = new LinkedHashMap<>();

    /** Records a newly discovered missing message; false if it was already recorded. */
    boolean add(PacketId id, long round, long nowNs) {
        return byId.putIfAbsent(id, new Missing(id, round, nowNs)) == null;
    }

    /** Forgets {@code id} (received or given up); returns its record or null. */
    Missing remove(PacketId id) {
        return byId.remove(id);
    }

    int size() {
        return byId.size();
    }

    /** Removes and returns the messages discovered more than {@code maxAge} rounds before {@code round}. */
    List<Missing> expire(long round, int maxAge) {
        List<Missing> expired = new ArrayList<>();
        for (Iterator<Missing> it = byId.values().iterator(); it.hasNext(); ) {
            Missing m = it.next();
            if (round - m.round() <= maxAge) {
                break; // discovery order is round order
            }
            expired.add(m);
            it.remove();
        }
        return expired;
    }
}
