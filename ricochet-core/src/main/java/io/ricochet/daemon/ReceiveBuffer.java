package io.ricochet.daemon;

import io.ricochet.engine.Counters;
import java.util.random.RandomGenerator;

/**
 * The application-level receive buffer of section 4.2.6: datagrams drained from the sockets wait here until the
 * engine thread processes them. Two bounded rings: control traffic (repairs, NAKs, retransmissions, sessions)
 * is handed out before bulk data. When a ring is full, a random packet already in it is dropped to make room for
 * the new one (counted), so overload turns into scattered losses that LEC repairs well, not a tail burst.
 *
 * <p>Packet storage is a fixed pool of {@code byte[]} slots, reused: the buffer allocates nothing once built.
 * Not thread-safe: owned by the engine's event loop.
 */
final class ReceiveBuffer {
    private final Ring control;
    private final Ring data;
    private final RandomGenerator rng;
    private final Counters counters;

    /**
     * @param capacityPerClass datagrams each ring holds
     * @param maxDatagram      longest datagram kept
     * @param rng              chooses the datagram a full ring drops
     * @param counters         the daemon's counters, where {@link DaemonCounter#RX_BUFFER_RANDOM_DROPS} is counted
     */
    ReceiveBuffer(int capacityPerClass, int maxDatagram, RandomGenerator rng, Counters counters) {
        this.control = new Ring(capacityPerClass, maxDatagram);
        this.data = new Ring(capacityPerClass, maxDatagram);
        this.rng = rng;
        this.counters = counters;
    }

    /**
     * Copies a datagram in: its frame, {@code frameLength} bytes, and what follows it up to {@code datagramLength}
     * (the authentication trailer, the seal a DATA frame's packet keeps); the sink later gets the frame's length.
     * {@code isData} chooses the ring. Datagrams longer than the slot size are refused.
     */
    boolean offer(boolean isData, byte[] src, int offset, int frameLength, int datagramLength) {
        Ring ring = isData ? data : control;
        if (datagramLength > ring.slotSize || frameLength > datagramLength) {
            return false;
        }
        if (ring.size == ring.slots.length) {
            ring.removeAt(rng.nextInt(ring.size));
            counters.increment(DaemonCounter.RX_BUFFER_RANDOM_DROPS);
        }
        ring.add(src, offset, frameLength, datagramLength);
        return true;
    }

    /** Hands every buffered datagram to {@code sink}, control first; returns how many. */
    int drain(Sink sink) {
        int n = 0;
        while (control.size > 0 || data.size > 0) {
            Ring ring = control.size > 0 ? control : data;
            int slot = ring.head;
            sink.accept(ring.slots[slot], ring.lengths[slot]);
            ring.pollHead();
            n++;
        }
        return n;
    }

    int size() {
        return control.size + data.size;
    }

    long memoryBytes() {
        return (long) (control.slots.length + data.slots.length) * control.slotSize;
    }

    /** Receives one buffered datagram; the bytes are valid only during the call. */
    interface Sink {
        void accept(byte[] datagram, int length);
    }

    /** A FIFO ring of preallocated slots that can also remove an arbitrary element. */
    private static final class Ring {
        final byte[][] slots;
        final int[] lengths;
        final int slotSize;
        int head;
        int size;

        Ring(int capacity, int slotSize) {
            this.slots = new byte[capacity][slotSize];
            this.lengths = new int[capacity];
            this.slotSize = slotSize;
        }

        void add(byte[] src, int offset, int frameLength, int datagramLength) {
            int slot = (head + size) % slots.length;
            System.arraycopy(src, offset, slots[slot], 0, datagramLength);
            lengths[slot] = frameLength;
            size++;
        }

        void pollHead() {
            head = (head + 1) % slots.length;
            size--;
        }

        /** Removes the i-th element (0 = head) by moving the head element into its place. */
        void removeAt(int i) {
            int victim = (head + i) % slots.length;
            if (victim != head) {
                byte[] tmp = slots[victim];
                slots[victim] = slots[head];
                slots[head] = tmp;
                lengths[victim] = lengths[head];
            }
            pollHead();
        }
    }
}
