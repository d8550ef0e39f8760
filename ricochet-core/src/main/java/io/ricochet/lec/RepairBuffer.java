package io.ricochet.lec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.RepairFlyweight;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bounded buffer of unusable repairs (paper, section 4.2.8): repairs still missing two or more packets, kept
 * in arrival order and indexed by the ids they miss. When the buffer is full the oldest repair is evicted
 * (counted). Storage is a pool of at most {@code capacity} preallocated-on-demand repairs.
 */
final class RepairBuffer {
    private final int capacity;
    private final int maxPayload;
    private final int sealLength;
    private final Counters counters;
    private final Map<PacketId, List<StoredRepair>> waiting = new HashMap<>();
    private final ArrayDeque<StoredRepair> free = new ArrayDeque<>();
    private int allocated;
    private int live;
    private StoredRepair oldest;
    private StoredRepair newest;

    RepairBuffer(int capacity, int maxPayload, int sealLength, Counters counters) {
        this.capacity = capacity;
        this.maxPayload = maxPayload;
        this.sealLength = sealLength;
        this.counters = counters;
    }

    /** Keeps a copy of {@code repair}; false if the buffer holds nothing (capacity 0). */
    boolean store(StoredRepair repair) {
        if (capacity == 0) {
            return false;
        }
        StoredRepair slot = obtain();
        slot.copyFrom(repair);
        slot.live = true;
        slot.older = newest;
        slot.newer = null;
        if (newest != null) {
            newest.newer = slot;
        }
        newest = slot;
        if (oldest == null) {
            oldest = slot;
        }
        live++;
        for (int i = 0; i < slot.count; i++) {
            waiting.computeIfAbsent(slot.ids[i], id -> new ArrayList<>(2)).add(slot);
        }
        counters.increment(LecCounter.REPAIRS_BUFFERED);
        return true;
    }

    private StoredRepair obtain() {
        if (!free.isEmpty()) {
            return free.pop();
        }
        if (allocated < capacity) {
            allocated++;
            return new StoredRepair(maxPayload, sealLength);
        }
        StoredRepair victim = oldest;
        release(victim);
        counters.increment(LecCounter.UNUSABLE_REPAIR_EVICTIONS);
        return free.pop();
    }

    /** Buffered repairs that miss {@code id} (live view; do not modify). */
    List<StoredRepair> waitingOn(PacketId id) {
        return waiting.getOrDefault(id, List.of());
    }

    /**
     * A packet became available: XOR it out of every repair waiting on it. Repairs left with one missing packet
     * are added to {@code ready} (still live; the caller recovers from them and then {@link #release}s them);
     * repairs left with none are released.
     */
    void onAvailable(PacketId id, byte[] payload, int offset, int length, ArrayDeque<StoredRepair> ready) {
        List<StoredRepair> repairs = waiting.remove(id);
        if (repairs == null) {
            return;
        }
        for (StoredRepair repair : repairs) {
            int index = repair.indexOf(id);
            if (!repair.live || index < 0) {
                continue;
            }
            repair.reduce(index, payload, offset, length);
            counters.increment(LecCounter.RECOVERY_XORS);
            if (repair.count == 1) {
                ready.add(repair);
            } else if (repair.count == 0) {
                release(repair);
            }
        }
    }

    /** Releases every buffered repair still missing a packet of the stream (origin, group). */
    void releaseStream(int origin, int group) {
        for (StoredRepair repair = oldest; repair != null; ) {
            StoredRepair next = repair.newer;
            for (int i = 0; i < repair.count; i++) {
                if (repair.ids[i].origin() == origin && repair.ids[i].group() == group) {
                    release(repair);
                    break;
                }
            }
            repair = next;
        }
    }

    /** Removes a repair from the buffer and its indexes and returns it to the pool. */
    void release(StoredRepair repair) {
        if (!repair.live) {
            return;
        }
        repair.live = false;
        for (int i = 0; i < repair.count; i++) {
            List<StoredRepair> list = waiting.get(repair.ids[i]);
            if (list != null) {
                list.remove(repair);
                if (list.isEmpty()) {
                    waiting.remove(repair.ids[i]);
                }
            }
        }
        if (repair.older != null) {
            repair.older.newer = repair.newer;
        } else {
            oldest = repair.newer;
        }
        if (repair.newer != null) {
            repair.newer.older = repair.older;
        } else {
            newest = repair.older;
        }
        repair.older = null;
        repair.newer = null;
        repair.clear();
        live--;
        free.push(repair);
    }

    int size() {
        return live;
    }

    long memoryBytes() {
        return (long) allocated * (maxPayload + (long) RepairFlyweight.MAX_ENTRIES * sealLength);
    }
}
