package io.ricochet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one test {@link Outbox} of every engine test: records everything an engine does, in order, each send stamped
 * with {@link #nowNs} (set it before each engine call when the time matters).
 */
public final class RecordingOutbox implements Outbox {
    /** A frame sent: {@code to} is the group of a multicast, the node of a unicast. */
    public record Sent(long atNs, int to, boolean multicast, byte[] frame) {
        /** The frame's type. */
        public int type() {
            return frame[3] & 0xFF;
        }
    }

    /** A packet handed to the application. */
    public record Delivered(int origin, int group, long seqno, byte[] payload, Delivery how) {
        public PacketId id() {
            return new PacketId(origin, group, seqno);
        }
    }

    /** A loss the engine discovered, and when. */
    public record Discovered(PacketId id, long atNs) {
    }

    public final List<Sent> sent = new ArrayList<>();
    public final List<Delivered> delivered = new ArrayList<>();
    /** The packets reported lost, in order; {@link #lostDiscoveredNs} has when each was discovered. */
    public final List<PacketId> lost = new ArrayList<>();
    public final List<Long> lostDiscoveredNs = new ArrayList<>();
    public final List<Discovered> discovered = new ArrayList<>();
    public final List<Long> wakes = new ArrayList<>();
    /** The time sends are stamped with. */
    public long nowNs;

    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
        sent.add(new Sent(nowNs, group, true, Arrays.copyOfRange(frame, offset, offset + length)));
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
        sent.add(new Sent(nowNs, node, false, Arrays.copyOfRange(frame, offset, offset + length)));
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
        delivered.add(new Delivered(origin, group, seqno, Arrays.copyOfRange(payload, offset, offset + length), how));
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        lost.add(new PacketId(origin, group, seqno));
        lostDiscoveredNs.add(discoveredNs);
    }

    @Override
    public void wakeAt(long deadlineNs) {
        wakes.add(deadlineNs);
    }

    @Override
    public void lossDiscovered(int origin, int group, long seqno, long atNs) {
        discovered.add(new Discovered(new PacketId(origin, group, seqno), atNs));
    }

    public List<Sent> sentOfType(int type) {
        return sent.stream().filter(s -> s.type() == type).toList();
    }

    public List<Delivered> deliveredBy(Delivery how) {
        return delivered.stream().filter(d -> d.how() == how).toList();
    }

    /** The ids of the discovered losses, in order. */
    public List<PacketId> discoveredIds() {
        return discovered.stream().map(Discovered::id).toList();
    }

    /** Takes and clears what was sent. */
    public List<Sent> drain() {
        List<Sent> copy = List.copyOf(sent);
        sent.clear();
        return copy;
    }

    public void clear() {
        sent.clear();
        delivered.clear();
        lost.clear();
        lostDiscoveredNs.clear();
        discovered.clear();
        wakes.clear();
    }
}
