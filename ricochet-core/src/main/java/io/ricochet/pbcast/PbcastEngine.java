package io.ricochet.pbcast;

import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.WakeRequests;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;
import java.util.random.RandomGenerator;

/**
 * Bimodal Multicast (pbcast) for one node, sans I/O (paper, section 3; optimizations of section 4): optimistic
 * dissemination by multicast of the shared DATA frame, two-phase anti-entropy in unsynchronized gossip rounds, and
 * FIFO delivery per sender. The parts: {@link Gossiper} (digests, each round), {@link Solicitor} (requests from
 * digests), {@link Retransmitter} (answers), {@link Receiver} (buffer intake, loss discovery, FIFO delivery, give
 * up), {@link GossipRounds} (round clock and budgets). See {@code docs/design/pbcast.md}.
 */
public final class PbcastEngine implements ProtocolEngine {
    private final int self;
    private final PbcastConfig config;
    private final RandomGenerator rng;
    private final Counters counters = new Counters(PbcastProtocol.COUNTERS);
    private final DataSender dataSender;
    private final GroupMembers members;
    private final GossipRounds rounds;
    private final Receiver receiver;
    private final MessageBuffer buffer;
    private final Retransmitter retransmitter;
    private final Solicitor solicitor;
    private final Gossiper gossiper;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final DigestFlyweight digest = new DigestFlyweight();
    private final SolicitFlyweight solicit = new SolicitFlyweight();
    private final WakeRequests wakes;

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param rng    the seeded source of every random choice (round phase, gossip targets, neighbours)
     * @param outbox where the engine's actions go
     */
    public PbcastEngine(int self, PbcastConfig config, RandomGenerator rng, Outbox outbox) {
        this.self = self;
        this.config = config;
        this.rng = rng;
        this.wakes = new WakeRequests(outbox);
        this.dataSender = new DataSender(self, config.maxPayload(), counters, outbox);
        this.members = new GroupMembers(self);
        this.rounds = new GossipRounds(config.roundNs(), config.limitRequests(), config.limitRetrans());
        this.receiver = new Receiver(self, config, outbox, counters);
        this.buffer = receiver.buffer();
        this.retransmitter = new Retransmitter(self, config, buffer, rounds, outbox, counters);
        this.solicitor = new Solicitor(self, config, receiver, members, rounds, rng, outbox, counters);
        this.gossiper = new Gossiper(self, config, buffer, retransmitter.policy(), members, rng, outbox, counters);
    }

    @Override
    public int nodeId() {
        return self;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    public PbcastConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- application

    @Override
    public long send(int group, byte[] payload, int offset, int length, long nowNs) {
        long seqno = dataSender.send(members.isMember(group), group, payload, offset, length);
        // The sender holds and gossips its own messages like any member (Figure 6: A answers the requests for M1).
        buffer.put(new PacketId(self, group, seqno), payload, offset, length, rounds.round(), false);
        afterInput(nowNs);
        return seqno;
    }

    // ---------------------------------------------------------------- membership

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        if (event.kind() != MembershipEvent.Kind.JOIN) {
            members.leave(group, node);
            return;
        }
        boolean fresh = members.join(group, node);
        if (node != self && fresh && members.isMember(group) && receiver.stream(node, group) == null) {
            receiver.stream(node, group, 0); // we saw it join: its stream starts at 0
        }
    }

    // ---------------------------------------------------------------- network input

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (PbcastFrames.check(buffer, offset, length) != Verdict.OK) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        switch (header.wrap(buffer, offset).type()) {
            case FrameType.DATA:
                onData(data.wrap(buffer, offset), false, nowNs);
                break;
            case PbcastFrameType.RETRANSMIT:
                counters.increment(EngineCounter.RETRANSMITS_RECEIVED);
                onData(data.wrap(buffer, offset), true, nowNs);
                break;
            case PbcastFrameType.DIGEST:
                onDigest(digest.wrap(buffer, offset), nowNs);
                break;
            case PbcastFrameType.REQUEST:
                if (isMember(solicit.wrap(buffer, offset).group())) {
                    retransmitter.onRequest(solicit);
                }
                break;
            case PbcastFrameType.MCAST:
                if (isMember(solicit.wrap(buffer, offset).group())) {
                    retransmitter.onMcast(solicit);
                }
                break;
            case PbcastFrameType.INFO:
                if (isMember(solicit.wrap(buffer, offset).group())) {
                    solicitor.onInfo(solicit, nowNs);
                }
                break;
            default:
                counters.increment(EngineCounter.INVALID_PACKETS); // valid, but another protocol's frame
                break;
        }
        afterInput(nowNs);
    }

    private boolean isMember(int group) {
        if (members.isMember(group)) {
            return true;
        }
        counters.increment(EngineCounter.NON_MEMBER);
        return false;
    }

    private void onData(DataFlyweight packet, boolean retransmitted, long nowNs) {
        boolean forged = !retransmitted && packet.origin() != packet.source();
        if (forged || packet.payloadLength() > config.maxPayload()) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (isMember(packet.group())) {
            receiver.accept(new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                    packet.payloadOffset(), packet.payloadLength(), retransmitted, rounds.round(), nowNs);
        }
    }

    private void onDigest(DigestFlyweight received, long nowNs) {
        if (received.source() == self) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (isMember(received.group())) {
            counters.increment(PbcastCounter.PBCAST_DIGESTS_RECEIVED);
            retransmitter.onGossipBits(received);
            solicitor.onDigest(received, nowNs);
        }
    }

    // ---------------------------------------------------------------- rounds

    /**
     * A round (Figure 4, "timer interrupt"): the round number advances and the budgets reset; missing messages
     * sought for stable-threshold rounds are given up; messages already gossiped in stable-threshold rounds are
     * garbage collected; the digests go out. A message arriving in round r is thus in the digests of rounds r + 1 ..
     * r + T and still answers requests during round r + T.
     */
    @Override
    public void onTimer(long nowNs) {
        if (rounds.due(nowNs)) {
            long round = rounds.advance(nowNs);
            counters.increment(PbcastCounter.PBCAST_ROUNDS);
            receiver.expire(round);
            buffer.expire(round, config.stableThreshold());
            gossiper.gossip(round);
        }
        afterInput(nowNs);
    }

    @Override
    public long nextDeadlineNs() {
        return rounds.nextDeadlineNs();
    }

    /** Rounds run while there is something to gossip about or to wait for; an idle member sets no timer. */
    private void afterInput(long nowNs) {
        if (buffer.size() > 0 || receiver.missingCount() > 0) {
            rounds.ensureRunning(nowNs, rng);
        } else {
            rounds.stop();
        }
        wakes.request(rounds.nextDeadlineNs(), nowNs);
    }

    // ---------------------------------------------------------------- introspection

    /** The current gossip round number (0 before the first round). */
    public long round() {
        return rounds.round();
    }

    /** Messages in the buffer now. */
    public int bufferedMessages() {
        return buffer.size();
    }

    /** Messages known missing and still sought. */
    public int missingMessages() {
        return receiver.missingCount();
    }

    /** Best effort: a datagram may be neither delivered nor reported (docs/api.md, "Delivery guarantees"). */
    @Override
    public boolean resolvesEveryDatagram() {
        return false;
    }

    @Override
    public long sentTo(int group) {
        return dataSender.sentTo(group);
    }

    /**
     * The seqno the stream (origin, group) delivers next: every seqno below it was delivered or reported lost.
     * -1 if this node has no such stream.
     */
    public long deliveredThrough(int origin, int group) {
        return receiver.nextDeliver(origin, group);
    }
}
