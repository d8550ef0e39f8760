package io.ricochet.engine;

import org.agrona.collections.Object2IntHashMap;

/**
 * A bounded store of packet payloads keyed by {@link PacketId}: the received-data cache kept for XOR recovery
 * and the sender's retransmit buffer. Slots are reused in FIFO order, so memory is fixed once full and inserting
 * never allocates a new payload array after that. When full, the oldest packet is evicted and the caller's eviction
 * counter incremented.
 *
 * <p>A slot's payload lies in {@link #payload} from {@link #offset}. Normally {@link #put} copies it there, at
 * offset 0. A caller that owns a whole received datagram can instead {@link #lend} it for one call into the engine:
 * a put of that very array then keeps the array itself, its payload where it is, and gives the caller the slot's
 * former array (of the same length) in its place ({@link #endLending}): a received packet is cached without a copy.
 */
public final class PacketStore {
    private final int capacity;
    private final int maxPayload;
    private final Counters counters;
    private final Counter evictionCounter;
    private final byte[][] payloads;
    private final int[] lengths;
    private final int[] offsets;
    private final PacketId[] ids;
    private final Object2IntHashMap<PacketId> index;
    private int next;
    /** The array lent for the current call, until a put keeps it. */
    private byte[] lent;
    /** The array a put kept during the current lending: no later put of the lending may write into it. */
    private byte[] kept;
    /** What the lender holds after the lending: the lent array, or the one a put gave in its place. */
    private byte[] giveBack;
    /** The length of a new slot array: maxPayload, or the lent arrays' if longer, so that any slot can swap. */
    private int arrayLength;

    public PacketStore(int capacity, int maxPayload, Counters counters, Counter evictionCounter) {
        this.capacity = capacity;
        this.maxPayload = maxPayload;
        this.arrayLength = maxPayload;
        this.counters = counters;
        this.evictionCounter = evictionCounter;
        this.payloads = new byte[capacity][];
        this.lengths = new int[capacity];
        this.offsets = new int[capacity];
        this.ids = new PacketId[capacity];
        this.index = new Object2IntHashMap<>(Math.min(capacity, 1 << 16) * 2, 0.65f, -1);
    }

    /**
     * Stores the payload (replacing an older copy of the same id); returns the slot. A copy, unless {@code src} is
     * the array {@link #lend lent} now and the slot's former array has its length: then {@code src} itself.
     */
    public int put(PacketId id, byte[] src, int offset, int length) {
        int existing = index.getValue(id);
        int slot = existing >= 0 ? existing : claimSlot(id);
        byte[] former = payloads[slot];
        if (src == lent && (former == null || former.length == src.length)) {
            payloads[slot] = src;
            offsets[slot] = offset;
            lengths[slot] = length;
            giveBack = former != null ? former : new byte[src.length];
            kept = src;
            lent = null;
            return slot;
        }
        if (former == null || former == kept) {
            // A slot's first payload, or the array the lender still reads in this very call: a fresh one.
            payloads[slot] = new byte[arrayLength];
        }
        System.arraycopy(src, offset, payloads[slot], 0, length);
        offsets[slot] = 0;
        lengths[slot] = length;
        return slot;
    }

    /**
     * Lends {@code datagram}, a whole received datagram its caller owns, for one call into the engine: a
     * {@link #put} of it during the call keeps the array instead of a copy. Ended by {@link #endLending}.
     */
    public void lend(byte[] datagram) {
        arrayLength = Math.max(arrayLength, datagram.length);
        lent = datagram;
        giveBack = datagram;
        kept = null;
    }

    /**
     * Ends the lending: returns the array the lender holds from now on in the lent one's place, the lent array
     * itself if no put kept it, else an array of the same length that is the lender's now.
     */
    public byte[] endLending() {
        byte[] result = giveBack;
        lent = null;
        kept = null;
        giveBack = null;
        return result;
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

    /** The array holding the payload in {@code slot}, from {@link #offset}. */
    public byte[] payload(int slot) {
        return payloads[slot];
    }

    /** Where the payload in {@code slot} starts in its {@link #payload} array (0 unless a lent array was kept). */
    public int offset(int slot) {
        return offsets[slot];
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

    /** Bytes of payload storage allocated so far (bounded by capacity times the longest array put or lent). */
    public long memoryBytes() {
        long bytes = 0;
        for (byte[] p : payloads) {
            if (p != null) {
                bytes += p.length;
            }
        }
        return bytes;
    }
}
