package io.ricochet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An {@link Outbox} that records everything an engine does, for scripted scenarios. */
public final class RecordingOutbox implements Outbox {
    public record Sent(int to, boolean multicast, byte[] frame) {
        public int type() {
            return frame[3];
        }
    }

    public record Delivered(int origin, int group, long seqno, byte[] payload, Delivery how) {
    }

    public record Lost(int origin, int group, long seqno) {
    }

    public final List<Sent> sent = new ArrayList<>();
    public final List<Delivered> delivered = new ArrayList<>();
    public final List<Lost> lost = new ArrayList<>();
    public final List<Long> wakes = new ArrayList<>();

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
        delivered.add(new Delivered(origin, group, seqno, Arrays.copyOfRange(payload, offset, offset + length), how));
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        lost.add(new Lost(origin, group, seqno));
    }

    @Override
    public void wakeAt(long deadlineNs) {
        wakes.add(deadlineNs);
    }

    public List<Sent> sentOfType(int type) {
        return sent.stream().filter(s -> s.type() == type).toList();
    }

    public void clear() {
        sent.clear();
        delivered.clear();
        lost.clear();
        wakes.clear();
    }
}
