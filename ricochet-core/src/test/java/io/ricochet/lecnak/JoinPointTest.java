package io.ricochet.lecnak;

import static io.ricochet.engine.Frames.data;
import static io.ricochet.engine.Frames.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.nak.JoinPoints;
import io.ricochet.nak.NakCounter;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Join points (docs/design/security.md, "Join points"): a node that joins a group takes a sender's data only from the
 * seqno that sender names in its answer to this node's probe, so DATA from before the join, replayed to it, is
 * never delivered. Node 1 joins group 7, where nodes 2 and 3 were first.
 */
class JoinPointTest {
    private static final int SELF = 1;
    private static final int G = 7;
    private static final long MS = 1_000_000L;

    private final RecordingOutbox out = new RecordingOutbox();
    private final RicochetEngine engine =
            new RicochetEngine(SELF, RicochetConfig.builder().build(), new SplittableRandom(1), out);

    private void joinAfterTwoAndThree(long nowNs) {
        engine.onMembership(MembershipEvent.join(G, 2), nowNs);
        engine.onMembership(MembershipEvent.join(G, 3), nowNs);
        out.nowNs = nowNs;
        engine.onMembership(MembershipEvent.join(G, SELF), nowNs);
    }

    private void receive(byte[] frame, long nowNs) {
        out.nowNs = nowNs;
        engine.onPacket(frame, 0, frame.length, nowNs);
    }

    private long count(Counter counter) {
        return engine.counters().get(counter);
    }

    private List<RecordingOutbox.Sent> probesTo(int node) {
        return out.sentOfType(FrameType.JOIN_PROBE).stream().filter(s -> s.to() == node).toList();
    }

    private static long nonce(RecordingOutbox.Sent sent) {
        return new PacketRefFlyweight().wrap(sent.frame(), 0).nonce();
    }

    private static byte[] joinPoint(int origin, long at, long nonce) {
        byte[] frame = new byte[PacketRefFlyweight.JOIN_LENGTH];
        new PacketRefFlyweight().wrap(frame, 0).writeJoin(FrameType.JOIN_POINT, origin, origin, G, at, nonce);
        return frame;
    }

    private byte[] answerOf(int origin, long at) {
        List<RecordingOutbox.Sent> probes = probesTo(origin);
        return joinPoint(origin, at, nonce(probes.get(probes.size() - 1)));
    }

    private List<Long> deliveredSeqnos(int origin) {
        return out.delivered.stream().filter(d -> d.origin() == origin).map(RecordingOutbox.Delivered::seqno)
                .toList();
    }

    @Test
    void shouldProbeEveryMemberThatWasThereFirstAndNoneThatJoinsLater() {
        joinAfterTwoAndThree(0);
        engine.onMembership(MembershipEvent.join(G, 4), MS);
        assertEquals(1, probesTo(2).size());
        assertEquals(1, probesTo(3).size());
        assertEquals(0, probesTo(4).size(), "node 4 joined after us, known to start at 0: all of its stream is ours");
        assertEquals(2, engine.awaitingJoinPoints(G));
        receive(data(4, G, 0), 2 * MS);
        assertEquals(List.of(0L), deliveredSeqnos(4));
    }

    @Test
    void shouldNeverDeliverDataFromBeforeTheJoinPointReplayedBeforeOrAfterIt() {
        joinAfterTwoAndThree(0);
        // An attacker replays node 2's DATA 10..19, captured before we joined, before and after the answer.
        for (long seqno = 10; seqno < 20; seqno++) {
            receive(data(2, G, seqno), MS);
        }
        assertTrue(out.delivered.isEmpty());
        assertEquals(10, count(NakCounter.AWAITING_JOIN_POINT));
        receive(answerOf(2, 40), 2 * MS);
        for (long seqno = 10; seqno < 20; seqno++) {
            receive(data(2, G, seqno), 3 * MS);
        }
        assertTrue(out.delivered.isEmpty(), "below the join point: the group's past");
        assertEquals(10, count(EngineCounter.DUPLICATES));
        assertEquals(0, count(EngineCounter.LOSSES_DETECTED), "no NAK for the past either");
        receive(data(2, G, 40), 4 * MS);
        assertEquals(List.of(40L), deliveredSeqnos(2));
        assertEquals(1, engine.awaitingJoinPoints(G), "node 3 has not answered");
    }

    @Test
    void shouldFindAtOnceWhatWasDroppedBetweenTheJoinPointAndItsAnswer() {
        joinAfterTwoAndThree(0);
        receive(data(2, G, 41), MS); // sent after node 2's join point, dropped while we waited for it
        receive(data(2, G, 42), MS);
        receive(answerOf(2, 40), 2 * MS);
        assertEquals(List.of(id(2, G, 40), id(2, G, 41), id(2, G, 42)), out.discoveredIds());
        receive(data(FrameType.RETRANSMIT, 2, id(2, G, 41)), 30 * MS);
        assertEquals(List.of(41L), deliveredSeqnos(2));
    }

    @Test
    void shouldRefuseAnAnswerWithAnotherNonceOrFromAnEarlierJoin() {
        joinAfterTwoAndThree(0);
        long firstNonce = nonce(probesTo(2).get(0));
        receive(joinPoint(2, 5, firstNonce + 1), MS);
        assertEquals(1, count(NakCounter.JOIN_POINTS_UNMATCHED));
        receive(joinPoint(3, 5, firstNonce), MS); // node 3's probe has a nonce of its own
        assertEquals(2, count(NakCounter.JOIN_POINTS_UNMATCHED));
        assertEquals(2, engine.awaitingJoinPoints(G));

        byte[] firstAnswer = joinPoint(2, 5, firstNonce);
        receive(firstAnswer, MS);
        assertEquals(1, count(NakCounter.JOIN_POINTS_RECEIVED));
        engine.onMembership(MembershipEvent.leave(G, SELF), 2 * MS);
        engine.onMembership(MembershipEvent.join(G, SELF), 3 * MS);
        assertTrue(nonce(probesTo(2).get(1)) > firstNonce, "a new join, a new nonce");
        receive(firstAnswer, 4 * MS); // the answer to the earlier join, replayed
        assertEquals(3, count(NakCounter.JOIN_POINTS_UNMATCHED));
        receive(data(2, G, 6), 5 * MS);
        assertTrue(out.delivered.isEmpty(), "the old join point does not start the stream");
    }

    @Test
    void shouldDropTheStreamOfAnEarlierMembershipWhenItJoinsAgain() {
        joinAfterTwoAndThree(0);
        receive(answerOf(2, 0), MS);
        receive(data(2, G, 0), MS);
        engine.onMembership(MembershipEvent.leave(G, SELF), 2 * MS);
        engine.onMembership(MembershipEvent.join(G, SELF), 3 * MS);
        receive(answerOf(2, 50), 4 * MS);
        receive(data(2, G, 1), 5 * MS); // sent while we were away: not for us
        receive(data(2, G, 50), 5 * MS);
        assertEquals(List.of(0L, 50L), deliveredSeqnos(2));
        assertEquals(0, count(EngineCounter.LOSSES_DETECTED), "no NAK for what was sent while we were away");
    }

    @Test
    void shouldRepeatAProbeWithItsNonceAtDoublingIntervalsUntilTheSenderLeaves() {
        joinAfterTwoAndThree(0);
        long nonce = nonce(probesTo(2).get(0));
        for (long t = MS; t <= 2_000 * MS; t += MS) {
            out.nowNs = t;
            engine.onTimer(t);
        }
        List<RecordingOutbox.Sent> probes = probesTo(2);
        assertTrue(probes.stream().allMatch(p -> nonce(p) == nonce), "every repeat of one probe has its nonce");
        assertEquals(List.of(0L, 50L, 150L, 350L, 750L, 1550L),
                probes.stream().map(p -> p.atNs() / MS).toList(), "50 ms, then doubling up to 1 s");
        engine.onMembership(MembershipEvent.leave(G, 2), 2_001 * MS);
        for (long t = 2_002 * MS; t <= 5_000 * MS; t += 10 * MS) {
            out.nowNs = t;
            engine.onTimer(t);
        }
        assertEquals(probes.size(), probesTo(2).size(), "no probe to a sender that left");
        assertEquals(1, engine.awaitingJoinPoints(G), "node 3 still");
        assertTrue(JoinPoints.MAX_RETRY_NS >= 1_000 * MS);
    }

    @Test
    void shouldTakeTheJoinPointOfASenderThatRestartedBeforeAnswering() {
        joinAfterTwoAndThree(0);
        engine.onMembership(new MembershipEvent(MembershipEvent.Kind.JOIN, G, 2, 9), MS); // a new incarnation
        assertEquals(2, engine.awaitingJoinPoints(G), "the new process answers the probe's repeats");
        receive(data(2, G, 0), 2 * MS);
        assertTrue(out.delivered.isEmpty());
        receive(answerOf(2, 0), 3 * MS);
        receive(data(FrameType.RETRANSMIT, 2, id(2, G, 0)), 30 * MS);
        assertEquals(List.of(0L), deliveredSeqnos(2), "its stream from 0, nothing of it lost");
    }

    @Test
    void shouldAnswerAProbeAboutItsOwnStreamWithItsNextSeqnoToTheProberOnly() {
        engine.onMembership(MembershipEvent.join(G, SELF), 0);
        byte[] payload = {1, 2, 3};
        for (int i = 0; i < 3; i++) {
            engine.send(G, payload, 0, payload.length, 0);
        }
        byte[] probe = new byte[PacketRefFlyweight.JOIN_LENGTH];
        new PacketRefFlyweight().wrap(probe, 0).writeJoin(FrameType.JOIN_PROBE, 5, SELF, G, 0, 77);
        out.sent.clear();
        receive(probe, MS);
        assertEquals(1, out.sent.size());
        RecordingOutbox.Sent answer = out.sent.get(0);
        PacketRefFlyweight point = new PacketRefFlyweight().wrap(answer.frame(), 0);
        assertEquals(FrameType.JOIN_POINT, answer.type());
        assertEquals(5, answer.to());
        assertTrue(!answer.multicast());
        assertEquals(3, point.seqno(), "what it sends next");
        assertEquals(77, point.nonce());
        assertEquals(SELF, point.origin());

        new PacketRefFlyweight().wrap(probe, 0).writeJoin(FrameType.JOIN_PROBE, 5, 9, G, 0, 78);
        out.sent.clear();
        receive(probe, MS);
        assertTrue(out.sent.isEmpty(), "a probe about another node's stream is not ours to answer");
        assertEquals(1, count(EngineCounter.INVALID_PACKETS));
    }

    /** A JOIN as the GMS reports it: where the sender's stream continues is the sender's to say. */
    private static MembershipEvent joinFromGms(int node) {
        return new MembershipEvent(MembershipEvent.Kind.JOIN, G, node, 0);
    }

    private static long question(RecordingOutbox.Sent probe) {
        return new PacketRefFlyweight().wrap(probe.frame(), 0).seqno();
    }

    @Test
    void shouldTakeASenderThatJoinsAfterItFromWhereItsStreamContinuedAtItsJoin() {
        joinAfterTwoAndThree(0);
        // Node 4 was in the group before, left, and comes back without restarting: its numbering continues at 80 000.
        engine.onMembership(joinFromGms(4), MS);
        assertEquals(1, probesTo(4).size());
        assertEquals(JoinPoints.FROM_ITS_JOIN, question(probesTo(4).get(0)));
        receive(data(4, G, 80_001), 2 * MS); // sent after its join, before its answer came
        assertTrue(deliveredSeqnos(4).isEmpty());
        receive(answerOf(4, 80_000), 3 * MS);
        assertEquals(List.of(id(4, G, 80_000), id(4, G, 80_001)), out.discoveredIds(),
                "what it sent since its join, found at once; nothing of its earlier membership");
        receive(data(FrameType.RETRANSMIT, 4, id(4, G, 80_000)), 30 * MS);
        receive(data(FrameType.RETRANSMIT, 4, id(4, G, 80_001)), 30 * MS);
        receive(data(4, G, 80_002), 31 * MS);
        assertEquals(List.of(80_000L, 80_001L, 80_002L), deliveredSeqnos(4));
        for (long t = 32 * MS; t <= 10_000 * MS; t += 10 * MS) {
            out.nowNs = t;
            engine.onTimer(t);
        }
        assertTrue(out.lost.isEmpty(), "no loss reported for the seqnos of its earlier membership");
    }

    @Test
    void shouldAnswerAMemberThatSawItJoinWithWhereItsStreamContinuedAtThatJoin() {
        engine.onMembership(MembershipEvent.join(G, SELF), 0);
        byte[] payload = {1, 2, 3};
        for (int i = 0; i < 3; i++) {
            engine.send(G, payload, 0, payload.length, 0);
        }
        engine.onMembership(MembershipEvent.leave(G, SELF), MS);
        engine.onMembership(MembershipEvent.join(G, SELF), 2 * MS); // back, the same process: it continues at 3
        engine.onMembership(MembershipEvent.join(G, 5), 2 * MS);
        for (int i = 0; i < 2; i++) {
            engine.send(G, payload, 0, payload.length, 3 * MS);
        }
        assertEquals(3, answerTo(5, JoinPoints.FROM_ITS_JOIN, 77), "node 5 saw us join: all we sent since is for it");
        assertEquals(5, answerTo(6, JoinPoints.FROM_NOW, 78), "node 6 joined after us: from what we send next");
        engine.onMembership(MembershipEvent.leave(G, SELF), 5 * MS);
        assertEquals(5, answerTo(5, JoinPoints.FROM_ITS_JOIN, 79), "out of the group: nothing sent since");
    }

    /** The seqno this node's JOIN_POINT names, answering {@code prober}'s probe asking {@code asked}. */
    private long answerTo(int prober, long asked, long nonce) {
        byte[] probe = new byte[PacketRefFlyweight.JOIN_LENGTH];
        new PacketRefFlyweight().wrap(probe, 0).writeJoin(FrameType.JOIN_PROBE, prober, SELF, G, asked, nonce);
        out.sent.clear();
        receive(probe, 4 * MS);
        assertEquals(1, out.sent.size());
        PacketRefFlyweight point = new PacketRefFlyweight().wrap(out.sent.get(0).frame(), 0);
        assertEquals(nonce, point.nonce());
        return point.seqno();
    }
}
