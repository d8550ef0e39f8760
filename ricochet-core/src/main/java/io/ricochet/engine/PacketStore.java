package io.ricochet.engine;

import org.agrona.collections.Object2IntHashMap;

/**
 * A bounded store of packet payloads keyed by {@link PacketId}: the received-data cache kept for XOR recovery
 * and the sender's retransmit buffer. Slots are reused in FIFO order, so memory is fixed at
 * {@code capacity * maxPayload} bytes once full and inserting never allocates a new payload array after that.
 * When full, the oldest packet is evicted and the caller's eviction counter incremented.
 */
public final class PacketStore {
    private final int capacity;
    private final int maxPayload;
    private final Counters counters;
    private final Counter evictionCounter;
    private final byte[][] payloads;
    private final int[] lengths;
    private final PacketId[] ids;
    private final Object2IntHashMap<PacketId> index;
    private int next;

    public PacketStore(int capacity, int maxPayload, Counters counters, Counter evictionCounter) {
        this.capacity = capacity;
        this.maxPayload = maxPayload;
        this.counters = counters;
        this.evictionCounter = evictionCounter;
        this.payloads = new byte[capacity][];
        this.lengths = new int[capacity];
        this.ids = new PacketId[capacity];
        this.index = new Object2IntHashMap<>(Math.min(capacity, 1 << 16) * 2, 0.65f, -1);
    }

    /** Stores a copy of the payload (replacing an older copy of the same id); returns the slot. */
    public int put(PacketId id, byte[] src, int offset, int length) {
        int existing = index.getValue(id);
        int slot = existing >= 0 ? existing : claimSlot(id);
        if (payloads[slot] == null) {
            payloads[slot] = new byte[maxPayload];
        }
        System.arraycopy(src, offset, payloads[slot], 0, length);
        lengths[slot] = length;
        return slot;
    }

    private int claimSlot(PacketId id) {
        int slot = next;
        next = next + 1 == capacity ? 0 : next + 1;
        if (ids[slot] != null) {
            index.removeKey(ids[slot]);
            counters.increment(evictionCounter);
        }
        ids[slot] = id;
        index.put(id, slot);
        return slot;
    }

    /** The packet in {@code slot}, or null if none was stored there yet. */
    public PacketId idAt(int slot) {
        return ids[slot];
    }

    /** The slot holding {@code id}, or -1. */
    public int find(PacketId id) {
        return index.getValue(id);
    }

    public byte[] payload(int slot) {
        return payloads[slot];
    }

    public int length(int slot) {
        return lengths[slot];
    }

    public int size() {
        return index.size();
    }

    public int capacity() {
        return capacity;
    }

    /** The slot the next new packet takes: when the store is full, the oldest packet's (FIFO). */
    public int nextSlot() {
        return next;
    }

    /** Bytes of payload storage allocated so far (bounded by capacity * maxPayload). */
    public long memoryBytes() {
        long slots = 0;
        for (byte[] p : payloads) {
            if (p != null) {
                slots++;
            }
        }
        return slots * maxPayload;
    }
}
