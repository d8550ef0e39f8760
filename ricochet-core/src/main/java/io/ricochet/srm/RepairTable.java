package io.ricochet.srm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.PacketId;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * SRM's repair timers (Floyd et al., section III-A). A member holding a requested packet waits uniform
 * [D1·d, (D1+D2)·d] and then multicasts it, unless it hears another member's repair first (suppression). After
 * sending or hearing a repair it holds down: requests for that packet are ignored for {@code holdDownFactor · d}, so
 * duplicate requests of the same round do not trigger a second repair. Scheduled repairs and hold-downs share one
 * bound, {@code maxPendingRepairs}; when it is full, new requests go unanswered here (others may answer).
 */
final class RepairTable {
    /** Sends the repair; returns false when the payload is no longer held. */
    interface Handler {
        boolean sendRepair(PacketId id, long nowNs);
    }

    /** A scheduled repair, or a hold-down after one. */
    static final class Entry extends Deadline {
        final PacketId id;
        boolean holding;

        Entry(PacketId id) {
            this.id = id;
        }
    }

    private final SrmConfig config;
    private final RandomGenerator rng;
    private final Counters counters;
    private final Map<PacketId, Entry> entries = new HashMap<>();
    private final DeadlineHeap<Entry> timers = new DeadlineHeap<>();

    RepairTable(SrmConfig config, RandomGenerator rng, Counters counters) {
        this.config = config;
        this.rng = rng;
        this.counters = counters;
    }

    /** Someone requested {@code id}, which this node holds. */
    void onRequest(PacketId id, long nowNs) {
        Entry entry = entries.get(id);
        if (entry != null) {
            if (entry.holding) {
                counters.increment(SrmCounter.SRM_REQUESTS_HELD_DOWN);
            }
            return; // Already answering this round, or holding down after the last.
        }
        entry = claim(id);
        if (entry != null) {
            timers.schedule(entry, nowNs + config.repairDelayNs(rng));
        }
    }

    /** Someone multicast a repair of {@code id}: cancel ours if scheduled, and hold down. */
    void onRepairHeard(PacketId id, long nowNs) {
        Entry entry = entries.get(id);
        if (entry == null) {
            entry = claim(id);
            if (entry == null) {
                return;
            }
        } else if (!entry.holding) {
            counters.increment(SrmCounter.SRM_REPAIRS_SUPPRESSED);
        }
        holdDown(entry, nowNs);
    }

    private Entry claim(PacketId id) {
        if (entries.size() >= config.maxPendingRepairs()) {
            counters.increment(SrmCounter.SRM_REPAIR_TABLE_FULL);
            return null;
        }
        Entry entry = new Entry(id);
        entries.put(id, entry);
        return entry;
    }

    private void holdDown(Entry entry, long nowNs) {
        entry.holding = true;
        timers.schedule(entry, nowNs + config.holdDownNs());
    }

    /** Fires every timer due at {@code nowNs}: sends due repairs, ends due hold-downs. */
    void poll(long nowNs, Handler handler) {
        for (Entry entry = timers.pollDue(nowNs); entry != null; entry = timers.pollDue(nowNs)) {
            if (!entry.holding && handler.sendRepair(entry.id, nowNs)) {
                holdDown(entry, nowNs);
            } else {
                entries.remove(entry.id);
            }
        }
    }

    boolean isScheduled(PacketId id) {
        Entry entry = entries.get(id);
        return entry != null && !entry.holding;
    }

    long nextDeadlineNs() {
        return timers.nextDeadlineNs();
    }

    int size() {
        return entries.size();
    }
}
