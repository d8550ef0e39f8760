package io.ricochet.srm;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An {@link Outbox} that records everything an SRM engine does, with the time it did it, for scripted tests. */
final class SrmRecordingOutbox implements Outbox {
    record Sent(long atNs, int group, byte[] frame) {
        int type() {
            return frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF;
        }
    }

    record Delivered(PacketId id, byte[] payload, Delivery how) {
    }

    record Discovered(PacketId id, long atNs) {
    }

    final List<Sent> sent = new ArrayList<>();
    final List<Delivered> delivered = new ArrayList<>();
    final List<PacketId> lost = new ArrayList<>();
    final List<Discovered> discovered = new ArrayList<>();
    final List<Integer> unicasts = new ArrayList<>();
    /** The engine's current time, set by the test before each call so sends can be time-stamped. */
    long nowNs;

    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
        sent.add(new Sent(nowNs, group, Arrays.copyOfRange(frame, offset, offset + length)));
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
        unicasts.add(node);
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
        delivered.add(new Delivered(new PacketId(origin, group, seqno),
                Arrays.copyOfRange(payload, offset, offset + length), how));
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        lost.add(new PacketId(origin, group, seqno));
    }

    @Override
    public void wakeAt(long deadlineNs) {
        // Scripted tests drive timers from engine.nextDeadlineNs().
    }

    @Override
    public void lossDiscovered(int origin, int group, long seqno, long nowNs) {
        discovered.add(new Discovered(new PacketId(origin, group, seqno), nowNs));
    }

    List<Sent> sentOfType(int type) {
        return sent.stream().filter(s -> s.type() == type).toList();
    }
}
