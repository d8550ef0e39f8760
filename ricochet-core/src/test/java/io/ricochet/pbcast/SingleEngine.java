package io.ricochet.pbcast;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.sim.Payloads;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
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
    private final RecordingOutbox out = new RecordingOutbox();
    /** What the engine reported lost. */
    final List<PacketId> lost = out.lost;
    private long nowNs;

    /** Node {@code self} in {@code group} with {@code others}; it saw them join, so their streams start at 0. */
    SingleEngine(PbcastConfig config, int self, int group, int... others) {
        engine = new PbcastEngine(self, config, new SplittableRandom(self), out);
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
        return out.sentOfType(type).stream().map(s -> new Sent(s.to(), s.multicast(), s.frame())).toList();
    }

    /** What the engine delivered, in order; every payload must be the sender's. */
    List<Delivered> delivered() {
        List<Delivered> list = new ArrayList<>();
        for (RecordingOutbox.Delivered d : out.delivered) {
            if (!Payloads.matches(d.payload(), 0, d.payload().length, d.origin(), d.group(), d.seqno(),
                    d.payload().length)) {
                throw new AssertionError("corrupt payload of " + d.id());
            }
            list.add(new Delivered(d.origin(), d.seqno(), d.how()));
        }
        return list;
    }

    /** The losses the engine discovered, in order. */
    List<PacketId> discovered() {
        return out.discoveredIds();
    }

    List<Long> deliveredSeqnos() {
        return delivered().stream().map(Delivered::seqno).toList();
    }

    void clear() {
        out.clear();
    }
}
