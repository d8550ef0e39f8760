package io.ricochet.daemon;

import io.ricochet.engine.Counters;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.util.random.RandomGenerator;

/**
 * The application-level receive buffer of section 4.2.6: datagrams drained from the sockets wait here until the
 * engine thread processes them. Two bounded rings: control traffic (NAKs, retransmissions, sessions, repairs) and
 * bulk data; a batch hands out control first, then data, then repairs and announcements ({@link #drain}). When a
 * ring is full, a random packet already in it is dropped to make room for the new one (counted), so overload turns
 * into scattered losses that LEC repairs well, not a tail burst.
 *
 * <p>Packet storage is a fixed pool of {@code byte[]} slots, reused: the buffer allocates nothing once built.
 * Not thread-safe: used by one thread at a time (the engine's, or a receive thread's under its landing's lock).
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
        if (datagramLength > maxDatagram() || frameLength > datagramLength) {
            return false;
        }
        System.arraycopy(src, offset, spare(isData), 0, datagramLength);
        commit(isData, frameLength);
        return true;
    }

    /**
     * The free slot the next datagram of a ring is read into, {@link #maxDatagram()} bytes: the socket's bytes are
     * copied there once, checked there, and either {@link #commit committed} or left (the slot is offered again).
     * A ring always has one, even full: it holds one slot more than its capacity.
     */
    byte[] spare(boolean isData) {
        Ring ring = isData ? data : control;
        return ring.slots[ring.tail()];
    }

    /**
     * Keeps the datagram just written into the ring's {@link #spare} slot; the sink will get {@code frameLength}.
     * When the ring is full, a random datagram already in it is dropped first (counted).
     */
    void commit(boolean isData, int frameLength) {
        Ring ring = isData ? data : control;
        if (ring.size == ring.capacity) {
            ring.removeAt(rng.nextInt(ring.size));
            counters.increment(DaemonCounter.RX_BUFFER_RANDOM_DROPS);
        }
        ring.lengths[ring.tail()] = frameLength;
        ring.size++;
    }

    /** The longest datagram a slot holds. */
    int maxDatagram() {
        return data.slotSize;
    }

    /**
     * Hands every buffered datagram to {@code sink} and empties the buffer; returns how many. Control frames go
     * first, then data, then what is read best after the data of its batch (kept with control): repairs (LEC's and
     * sender-based FEC's) and progress announcements (SESSION, TAIL). Handed over before the data of its own batch,
     * a repair would name that data as lost, and the engine would rebuild by XOR a packet it was about to receive
     * (they come on different sockets, so a repair is often read first); an announcement would name it lost too, and
     * the data would count as late arrivals, each through the loss table and the recovery histograms.
     */
    int drain(Sink sink) {
        int n = control.size + data.size;
        control.handOut(sink, Pick.BEFORE_DATA);
        data.handOut(sink, Pick.ALL);
        control.handOut(sink, Pick.AFTER_DATA);
        control.clear();
        data.clear();
        return n;
    }

    /** Which of a ring's elements a pass hands out. */
    private enum Pick { ALL, AFTER_DATA, BEFORE_DATA }

    /**
     * Whether the frame is handed out after the data of its batch, a repair or a progress announcement: the wire's
     * classes of its type ({@link FrameType#isProactiveRepair}, {@link FrameType#isProgressAnnouncement}), so the
     * buffer knows no protocol's frames.
     */
    static boolean afterData(byte[] frame) {
        int type = frame[HeaderFlyweight.TYPE_OFFSET];
        return FrameType.isProactiveRepair(type) || FrameType.isProgressAnnouncement(type);
    }

    int size() {
        return control.size + data.size;
    }

    long memoryBytes() {
        return (long) (control.slots.length + data.slots.length) * control.slotSize;
    }

    /**
     * Receives one buffered datagram, lent for the call: returns the array the buffer keeps in its place, the
     * datagram's own or another of the same length that the sink gives up (it kept the datagram).
     */
    interface Sink {
        byte[] accept(byte[] datagram, int length);
    }

    /**
     * A FIFO ring of preallocated slots that can also remove an arbitrary element. It has one slot more than its
     * capacity, so the slot after the last element is always free to read the next datagram into.
     */
    private static final class Ring {
        final byte[][] slots;
        final int[] lengths;
        final int capacity;
        final int slotSize;
        int head;
        int size;

        Ring(int capacity, int slotSize) {
            this.slots = new byte[capacity + 1][slotSize];
            this.lengths = new int[capacity + 1];
            this.capacity = capacity;
            this.slotSize = slotSize;
        }

        int tail() {
            return (head + size) % slots.length;
        }

        void pollHead() {
            head = (head + 1) % slots.length;
            size--;
        }

        /** Hands out, in order, the elements {@code pick} names. */
        void handOut(Sink sink, Pick pick) {
            for (int i = 0; i < size; i++) {
                int slot = (head + i) % slots.length;
                if (pick == Pick.ALL || afterData(slots[slot]) == (pick == Pick.AFTER_DATA)) {
                    byte[] back = sink.accept(slots[slot], lengths[slot]);
                    if (back.length != slotSize) {
                        throw new IllegalStateException("a sink gave back " + back.length + " bytes for a slot of "
                                + slotSize);
                    }
                    slots[slot] = back;
                }
            }
        }

        /** Drops every element; the free slot after the last stays where it is. */
        void clear() {
            head = (head + size) % slots.length;
            size = 0;
        }

        /**
         * Removes the i-th element (0 = head) by moving the head element into its place; the free slot after the
         * last element stays where it is.
         */
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
