package io.ricochet.pbcast;

import io.ricochet.engine.PacketId;
import java.util.HashMap;
import java.util.Map;

/**
 * A member's message buffer (paper, section 3.2): the data messages it holds, oldest first, each with the round it
 * entered the buffer and the per-message state of the optimizations: the request counter (Pbcast-ipmc) and the
 * retransmit bits (Pbcast-grb). A FIFO ring of {@code capacity} slots whose payload arrays are allocated once and
 * reused. Messages leave from the head only: by age ({@link #expire}) or, when the ring is full, by eviction.
 * Because messages enter in round order, the head is always the oldest.
 */
final class MessageBuffer {
    /** Told before a message leaves the buffer, while its slot is still intact. */
    interface RemovalListener {
        void beforeRemove(int slot, boolean evicted);
    }

    private final int capacity;
    private final int maxPayload;
    private final RemovalListener listener;
    private final byte[][] payloads;
    private final int[] lengths;
    private final PacketId[] ids;
    private final long[] rounds;
    private final boolean[] recovered;
    private final int[] requestCounters;
    private final boolean[] myRetransmit;
    private final int[] gossipRetransmit;
    private final Map<PacketId, Integer> index;
    private int head;
    private int size;

    MessageBuffer(int capacity, int maxPayload, RemovalListener listener) {
        this.capacity = capacity;
        this.maxPayload = maxPayload;
        this.listener = listener;
        this.payloads = new byte[capacity][];
        this.lengths = new int[capacity];
        this.ids = new PacketId[capacity];
        this.rounds = new long[capacity];
        this.recovered = new boolean[capacity];
        this.requestCounters = new int[capacity];
        this.myRetransmit = new boolean[capacity];
        this.gossipRetransmit = new int[capacity];
        this.index = new HashMap<>(Math.min(capacity, 1 << 16) * 2);
    }

    /** Evicts the oldest message if the buffer is full, so the next {@link #put} evicts nothing. */
    void makeRoom() {
        if (size == capacity) {
            removeHead(true);
        }
    }

    /**
     * Stores a copy of a message that is not buffered yet, entering in {@code round}; returns its slot.
     *
     * @param recovered true if it came by retransmission rather than by the original multicast
     */
    int put(PacketId id, byte[] src, int offset, int length, long round, boolean recovered) {
        if (index.containsKey(id)) {
            throw new IllegalStateException(id + " is already buffered");
        }
        makeRoom();
        int slot = (head + size) % capacity;
        if (payloads[slot] == null) {
            payloads[slot] = new byte[maxPayload];
        }
        System.arraycopy(src, offset, payloads[slot], 0, length);
        lengths[slot] = length;
        ids[slot] = id;
        rounds[slot] = round;
        this.recovered[slot] = recovered;
        requestCounters[slot] = 0;
        myRetransmit[slot] = false;
        gossipRetransmit[slot] = 0;
        index.put(id, slot);
        size++;
        return slot;
    }

    /** Removes the messages older than {@code maxAge} rounds at {@code round}; returns how many. */
    int expire(long round, int maxAge) {
        int removed = 0;
        while (size > 0 && round - rounds[head] > maxAge) {
            removeHead(false);
            removed++;
        }
        return removed;
    }

    private void removeHead(boolean evicted) {
        listener.beforeRemove(head, evicted);
        index.remove(ids[head]);
        ids[head] = null;
        head = (head + 1) % capacity;
        size--;
    }

    /** The slot holding {@code id}, or -1. */
    int find(PacketId id) {
        Integer slot = index.get(id);
        return slot == null ? -1 : slot;
    }

    int size() {
        return size;
    }

    /** The slot of the {@code i}-th oldest message, {@code 0 <= i < size()}. */
    int slotAt(int i) {
        return (head + i) % capacity;
    }

    PacketId id(int slot) {
        return ids[slot];
    }

    byte[] payload(int slot) {
        return payloads[slot];
    }

    int length(int slot) {
        return lengths[slot];
    }

    boolean recovered(int slot) {
        return recovered[slot];
    }

    // ------------------------------------------------------------ per-message state of the optimizations

    int requestCounter(int slot) {
        return requestCounters[slot];
    }

    void requestCounter(int slot, int value) {
        requestCounters[slot] = value;
    }

    boolean myRetransmitBit(int slot) {
        return myRetransmit[slot];
    }

    void myRetransmitBit(int slot, boolean value) {
        myRetransmit[slot] = value;
    }

    int gossipRetransmitBit(int slot) {
        return gossipRetransmit[slot];
    }

    void gossipRetransmitBit(int slot, int value) {
        gossipRetransmit[slot] = value;
    }
}
