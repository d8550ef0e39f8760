package io.ricochet.fec;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An {@link Outbox} that records everything an engine does, for scripted scenarios. */
final class Recorder implements Outbox {
    record Sent(int to, boolean multicast, byte[] frame) {
        int type() {
            return frame[3] & 0xFF;
        }
    }

    record Delivered(PacketId id, byte[] payload, Delivery how) {
    }

    final List<Sent> sent = new ArrayList<>();
    final List<Delivered> delivered = new ArrayList<>();
    final List<PacketId> lost = new ArrayList<>();
    final List<PacketId> discovered = new ArrayList<>();
    final List<Long> wakes = new ArrayList<>();

    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
        sent.add(new Sent(group, true, Arrays.copyOfRange(frame, offset, offset + length)));
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
        sent.add(new Sent(node, false, Arrays.copyOfRange(frame, offset, offset + length)));
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
        delivered.add(new Delivered(new PacketId(origin, group, seqno), Arrays.copyOfRange(payload, offset,
                offset + length), how));
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        lost.add(new PacketId(origin, group, seqno));
    }

    @Override
    public void wakeAt(long deadlineNs) {
        wakes.add(deadlineNs);
    }

    @Override
    public void lossDiscovered(int origin, int group, long seqno, long nowNs) {
        discovered.add(new PacketId(origin, group, seqno));
    }

    List<Sent> sentOfType(int type) {
        return sent.stream().filter(s -> s.type() == type).toList();
    }

    List<Delivered> deliveredBy(Delivery how) {
        return delivered.stream().filter(d -> d.how() == how).toList();
    }

    /** Takes and clears what was sent. */
    List<Sent> drain() {
        List<Sent> copy = List.copyOf(sent);
        sent.clear();
        return copy;
    }
}
