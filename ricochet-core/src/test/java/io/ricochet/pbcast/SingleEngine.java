package io.ricochet.pbcast;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.Counter;
import io.ricochet.sim.Payloads;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One {@link PbcastEngine} under test, fed hand-made frames, with everything it does recorded: frames sent,
 * deliveries, losses, discoveries. {@link #fireRound()} moves time to the engine's next round.
 */
final class SingleEngine {
    /** A frame the engine sent; {@code to} is the group for a multicast. */
    record Sent(int to, boolean multicast, byte[] frame) {
        int type() {
            return Bytes.getUnsignedByte(frame, HeaderFlyweight.TYPE_OFFSET);
        }

        SolicitFlyweight solicit() {
            return new SolicitFlyweight().wrap(frame, 0);
        }

        DigestFlyweight digest() {
            return new DigestFlyweight().wrap(frame, 0);
        }
    }

    /** A delivery to the application. */
    record Delivered(int origin, long seqno, Delivery how) {
    }

    final PbcastEngine engine;
    final List<Sent> sent = new ArrayList<>();
    final List<Delivered> delivered = new ArrayList<>();
    final List<PacketId> lost = new ArrayList<>();
    final List<PacketId> discovered = new ArrayList<>();
    private long nowNs;

    /** Node {@code self} in {@code group} with {@code others}; it saw them join, so their streams start at 0. */
    SingleEngine(PbcastConfig config, int self, int group, int... others) {
        engine = new PbcastEngine(self, config, new SplittableRandom(self), new Recorder());
        engine.onMembership(MembershipEvent.join(group, self), 0);
        for (int other : others) {
            engine.onMembership(MembershipEvent.join(group, other), 0);
        }
    }

    void receive(byte[] frame) {
        engine.onPacket(frame, 0, frame.length, nowNs);
    }

    long send(int group, int length) {
        byte[] payload = new byte[length];
        Payloads.fill(payload, 0, length, engine.nodeId(), group, engine.sentTo(group));
        return engine.send(group, payload, 0, length, nowNs);
    }

    /** Runs the engine's next round; returns its round number. */
    long fireRound() {
        nowNs = engine.nextDeadlineNs();
        if (nowNs == Long.MAX_VALUE) {
            throw new IllegalStateException("no round is scheduled");
        }
        engine.onTimer(nowNs);
        return engine.round();
    }

    long counter(Counter counter) {
        return engine.counters().get(counter);
    }

    List<Sent> sentOfType(int type) {
        return sent.stream().filter(s -> s.type() == type).toList();
    }

    List<Long> deliveredSeqnos() {
        return delivered.stream().map(Delivered::seqno).toList();
    }

    void clear() {
        sent.clear();
        delivered.clear();
        lost.clear();
        discovered.clear();
    }

    /** Records everything. */
    private final class Recorder implements Outbox {
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
            if (!Payloads.matches(payload, offset, length, origin, group, seqno, length)) {
                throw new AssertionError("corrupt payload of (" + origin + "," + group + "," + seqno + ")");
            }
            delivered.add(new Delivered(origin, seqno, how));
        }

        @Override
        public void lost(int origin, int group, long seqno, long discoveredNs) {
            lost.add(new PacketId(origin, group, seqno));
        }

        @Override
        public void wakeAt(long deadlineNs) {
        }

        @Override
        public void lossDiscovered(int origin, int group, long seqno, long discoveredNs) {
            discovered.add(new PacketId(origin, group, seqno));
        }
    }
}
