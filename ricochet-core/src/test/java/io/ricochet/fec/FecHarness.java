package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.sim.Payloads;
import java.util.Arrays;
import java.util.List;

/**
 * A sender and a receiver running {@link FecEngine} in one group, with the network in the test's hands: the test
 * decides which of the sender's frames reach the receiver. Payloads come from {@link Payloads}, with lengths that
 * differ per packet so padding is exercised, and every delivery can be checked against what was sent.
 */
final class FecHarness {
    static final int SENDER = 1;
    static final int RECEIVER = 2;
    static final int GROUP = 7;
    static final long MS = 1_000_000L;

    final FecConfig config;
    final RecordingOutbox senderOut = new RecordingOutbox();
    final RecordingOutbox receiverOut = new RecordingOutbox();
    final FecEngine sender;
    final FecEngine receiver;
    long nowNs;

    FecHarness(FecConfig config) {
        this.config = config;
        this.sender = new FecEngine(SENDER, config, senderOut);
        this.receiver = new FecEngine(RECEIVER, config, receiverOut);
        for (FecEngine engine : List.of(sender, receiver)) {
            engine.onMembership(MembershipEvent.join(GROUP, engine.nodeId()), 0);
        }
        sender.onMembership(MembershipEvent.join(GROUP, RECEIVER), 0);
        receiver.onMembership(MembershipEvent.join(GROUP, SENDER), 0);
    }

    static int lengthOf(long seqno) {
        return 40 + (int) ((seqno * 37) % 200);
    }

    static byte[] payload(long seqno) {
        byte[] p = new byte[lengthOf(seqno)];
        Payloads.fill(p, 0, p.length, SENDER, GROUP, seqno);
        return p;
    }

    static PacketId id(long seqno) {
        return new PacketId(SENDER, GROUP, seqno);
    }

    /** The sender sends {@code count} packets, one per millisecond; returns every frame it multicast. */
    List<RecordingOutbox.Sent> send(int count) {
        for (int i = 0; i < count; i++) {
            long seqno = sender.counters().get(EngineCounter.DATA_SENT);
            byte[] p = payload(seqno);
            sender.send(GROUP, p, 0, p.length, nowNs);
            nowNs += MS;
        }
        return senderOut.drain();
    }

    /** Hands every frame but those at the given positions to the receiver. */
    void deliverExcept(List<RecordingOutbox.Sent> frames, int... dropped) {
        for (int i = 0; i < frames.size(); i++) {
            final int position = i;
            if (Arrays.stream(dropped).noneMatch(d -> d == position)) {
                toReceiver(frames.get(i));
            }
        }
    }

    void toReceiver(RecordingOutbox.Sent frame) {
        receiver.onPacket(frame.frame(), 0, frame.frame().length, nowNs);
    }

    void toSender(RecordingOutbox.Sent frame) {
        sender.onPacket(frame.frame(), 0, frame.frame().length, nowNs);
    }

    /** Moves time to {@code timeNs} and fires both engines' timers. */
    void advanceTo(long timeNs) {
        nowNs = timeNs;
        sender.onTimer(nowNs);
        receiver.onTimer(nowNs);
    }

    /** Every delivery so far carried the bytes the sender sent. */
    void assertPayloadsIntact() {
        for (RecordingOutbox.Delivered d : receiverOut.delivered) {
            assertArrayEquals(payload(d.id().seqno()), d.payload(), "payload of " + d.id());
        }
    }
}
