package io.ricochet.qsm;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.StreamTable;
import io.ricochet.engine.WakeRequests;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node's QSM engine, sans I/O: DATA multicast with per-(sender, group) seqnos, and recovery by tokens that
 * circulate every {@code tokenInterval} per hop around the rings of each group's {@link RingUnit}: one ring of its
 * members ordered by node id, or, in a unit larger than a partition, a ring per partition and a ring of the
 * partition leaders. See {@code docs/design/qsm.md}. Owned by one thread; time is an argument; it draws nothing at
 * random.
 */
public final class QsmEngine implements ProtocolEngine {
    /** How long a departed sender's stream is kept: its tail may still be recovered from peers. */
    public static final long RETIRE_AFTER_NS = 5_000_000_000L;

    private final int self;
    private final QsmConfig config;
    private final Outbox outbox;
    private final Counters counters = new Counters(QsmProtocol.COUNTERS);
    private final DataSender dataSender;
    private final StreamTable streams;
    private final MissingTable missing;
    private final PacketStore cache;
    private final SendBuffer sendBuffer;
    private final Receiver receiver;
    private final TokenVisitor visitor;
    private final LeadersVisitor leadersVisitor;
    private final Map<Integer, RingUnit> units = new TreeMap<>();
    private final StreamTable.Roster roster = this::isListed;
    private final WakeRequests wakes;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final QsmTokenFlyweight tokenIn = new QsmTokenFlyweight();
    private final byte[] tokenFrame = new byte[HeaderFlyweight.STANDARD_FRAME_LENGTH];
    private final QsmTokenFlyweight tokenOut = new QsmTokenFlyweight().wrap(tokenFrame, 0);

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param outbox where the engine's actions go
     */
    public QsmEngine(int self, QsmConfig config, Outbox outbox) {
        this.self = self;
        this.config = config;
        this.outbox = outbox;
        this.dataSender = new DataSender(self, config.maxPayload(), counters, outbox);
        this.streams = new StreamTable(config.streamWindow());
        this.missing = new MissingTable(config.lossTableCapacity());
        this.cache = new PacketStore(config.cacheCapacity(), config.maxPayload(), counters,
                EngineCounter.DATA_CACHE_EVICTIONS);
        this.sendBuffer = new SendBuffer(config.sendBufferCapacity(), counters);
        this.receiver = new Receiver(streams, missing, cache, counters, outbox);
        Forwarder forwarder = new Forwarder(self, config.maxPayload(), receiver, cache, sendBuffer, counters, outbox);
        this.visitor = new TokenVisitor(self, config, streams, missing, receiver, sendBuffer, forwarder,
                dataSender::sentTo, counters);
        this.leadersVisitor = new LeadersVisitor(self, config, forwarder, counters);
        this.wakes = new WakeRequests(outbox);
    }

    @Override
    public int nodeId() {
        return self;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    public QsmConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- application and membership

    @Override
    public long send(int group, byte[] payload, int offset, int length, long nowNs) {
        RingUnit unit = units.get(group);
        int idle = idleRings(unit);
        long seqno = dataSender.send(unit != null && unit.isMember(), group, payload, offset, length);
        sendBuffer.put(group, seqno, payload, offset, length);
        startRegenerationClocks(unit, idle, nowNs);
        workArrived(unit, nowNs);
        requestWake(nowNs);
        return seqno;
    }

    @Override
    public StreamTable streams() {
        return streams;
    }

    @Override
    public long sentTo(int group) {
        return dataSender.sentTo(group);
    }

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        RingUnit unit = units.computeIfAbsent(group, g -> new RingUnit(g, self, config.partitionSize()));
        if (event.kind() == MembershipEvent.Kind.JOIN) {
            boolean fresh = unit.add(node);
            unit.relayout(nowNs);
            if (node == self) {
                unit.local.lastSeenNs = nowNs;
                unit.upper.lastSeenNs = nowNs;
            } else {
                StreamTable.Stream replaced = streams.joined(node, group, event.incarnation(), fresh,
                        unit.isMember());
                if (replaced != null) {
                    receiver.abandon(node, group); // a restarted sender: its old losses cannot be recovered
                }
            }
        } else if (node == self) {
            receiver.abandon(-1, group);
            sendBuffer.dropGroup(group);
            streams.retireGroup(group, nowNs + RETIRE_AFTER_NS);
            unit.local.release(nowNs);
            unit.upper.release(nowNs);
            unit.remove(self);
            unit.relayout(nowNs);
        } else {
            unit.remove(node);
            unit.relayout(nowNs);
            streams.retire(node, group, nowNs + RETIRE_AFTER_NS);
        }
        requestWake(nowNs);
    }

    /** The GMS's regions of {@code group}: partitions no longer span two of them (QSM section 3). */
    @Override
    public void onRegions(int group, List<List<Integer>> regions, long nowNs) {
        RingUnit unit = units.computeIfAbsent(group, g -> new RingUnit(g, self, config.partitionSize()));
        if (unit.regions(regions)) {
            unit.relayout(nowNs);
            requestWake(nowNs);
        }
    }

    private boolean isListed(int group, int node) {
        RingUnit unit = units.get(group);
        return unit != null && unit.members().contains(node);
    }

    // ---------------------------------------------------------------- network input

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (QsmFrameValidator.check(buffer, offset, length) != FrameValidator.Verdict.OK) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        header.wrap(buffer, offset);
        if (header.source() == self) {
            counters.increment(EngineCounter.DUPLICATES); // our own frame looped back
            return;
        }
        switch (header.type()) {
            case FrameType.DATA:
                onData(data.wrap(buffer, offset), nowNs);
                break;
            case FrameType.QSM_REPAIR:
                onForward(data.wrap(buffer, offset), nowNs);
                break;
            default:
                onToken(tokenIn.wrap(buffer, offset), nowNs);
                break;
        }
        requestWake(nowNs);
    }

    private void onData(DataFlyweight packet, long nowNs) {
        RingUnit unit = units.get(packet.group());
        if (Admission.acceptable(packet, false, unit != null && unit.isMember(), config.maxPayload(), counters)) {
            admit(unit, packet, Receiver.Via.DATA, nowNs);
        }
    }

    private void onForward(DataFlyweight packet, long nowNs) {
        counters.increment(QsmCounter.QSM_REPAIRS_RECEIVED);
        RingUnit unit = units.get(packet.group());
        if (packet.payloadLength() > config.maxPayload() || packet.origin() == self) {
            counters.increment(packet.origin() == self ? EngineCounter.DUPLICATES : EngineCounter.INVALID_PACKETS);
        } else if (unit == null || !unit.isMember()) {
            counters.increment(EngineCounter.NON_MEMBER);
        } else if (!unit.members().contains(packet.source())) {
            counters.increment(EngineCounter.INVALID_PACKETS); // only a member of the ring unit forwards
        } else {
            admit(unit, packet, Receiver.Via.FORWARD, nowNs);
        }
    }

    private void admit(RingUnit unit, DataFlyweight packet, Receiver.Via via, long nowNs) {
        StreamTable.Stream stream = streams.getOrCreateListed(packet.origin(), packet.group(), packet.seqno(),
                roster, counters);
        if (stream != null) {
            int idle = idleRings(unit);
            receiver.accept(stream, new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                    packet.payloadOffset(), packet.payloadLength(), via, nowNs);
            startRegenerationClocks(unit, idle, nowNs);
            workArrived(unit, nowNs);
        }
    }

    /** Which of the unit's rings have no work at this member now: bit 0 its partition's, bit 1 the leaders'. */
    private int idleRings(RingUnit unit) {
        if (unit == null) {
            return 0;
        }
        return (hasWork(unit, unit.local) ? 0 : 1) | (hasWork(unit, unit.upper) ? 0 : 2);
    }

    /**
     * Work appeared at a member that had none: its regeneration timeout counts from now, not from the last token it
     * saw (which, on a ring that was parked, is long past: it would regenerate at once beside the unparked token).
     */
    private void startRegenerationClocks(RingUnit unit, int idleBefore, long nowNs) {
        if (unit == null) {
            return;
        }
        if ((idleBefore & 1) != 0 && hasWork(unit, unit.local)) {
            unit.local.lastSeenNs = Math.max(unit.local.lastSeenNs, nowNs);
        }
        if ((idleBefore & 2) != 0 && hasWork(unit, unit.upper)) {
            unit.upper.lastSeenNs = Math.max(unit.upper.lastSeenNs, nowNs);
        }
    }

    /**
     * A packet was sent or arrived in the unit's group: parked tokens move again, and the leader of a ring that
     * never had a token makes the first one.
     */
    private void workArrived(RingUnit unit, long nowNs) {
        if (unit == null || !unit.isMember()) {
            return;
        }
        workArrived(unit.local, nowNs);
        workArrived(unit.upper, nowNs);
    }

    private void workArrived(Ring ring, long nowNs) {
        if (!ring.isMember()) {
            return;
        }
        ring.workSinceVisit = true;
        wake(ring, nowNs);
    }

    /** A parked token held here moves again; the leader of a ring that never had a token makes the first one. */
    private void wake(Ring ring, long nowNs) {
        if (ring.held == null && ring.bestEpoch < 0 && ring.isLeader()) {
            ring.take(new Token(ring.group, ring.level, 0, self), nowNs, config.tokenIntervalNs());
        } else {
            ring.unpark(nowNs, config.tokenIntervalNs());
        }
    }

    private void onToken(QsmTokenFlyweight frame, long nowNs) {
        RingUnit unit = units.get(frame.group());
        if (unit == null || !unit.isMember()) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        Ring ring = frame.level() == 0 ? unit.local : unit.upper;
        Token token = Token.read(frame);
        if (!ring.isMember() || !ring.members().contains(frame.source()) || !TokenRules.consistent(token)) {
            counters.increment(QsmCounter.QSM_TOKENS_REFUSED);
            return;
        }
        if (ring.isStale(token.epoch, token.generator)
                || ring.held != null && !token.outranks(ring.held.epoch, ring.held.generator)) {
            counters.increment(QsmCounter.QSM_TOKENS_STALE);
            return;
        }
        if (ring.held != null) {
            counters.increment(QsmCounter.QSM_TOKENS_SUPERSEDED);
        }
        counters.increment(QsmCounter.QSM_TOKENS_RECEIVED);
        ring.take(token, nowNs, config.tokenIntervalNs());
    }

    // ---------------------------------------------------------------- timers

    @Override
    public void onTimer(long nowNs) {
        receiver.revealPending(nowNs);
        streams.pruneDue(nowNs, (origin, group) -> {
            receiver.abandon(origin, group);
            counters.increment(EngineCounter.STREAMS_PRUNED);
        });
        for (RingUnit unit : units.values()) {
            for (Ring ring : unit.rings) {
                if (ring.held != null && !ring.parked && ring.forwardAtNs - nowNs <= 0) {
                    pass(unit, ring, nowNs);
                } else if (ring.held == null && ring.isMember() && hasWork(unit, ring)
                        && ring.regenerateAtNs(config) - nowNs <= 0) {
                    counters.increment(QsmCounter.QSM_TOKENS_REGENERATED);
                    ring.take(new Token(ring.group, ring.level, ring.bestEpoch + 1, self), nowNs, 0);
                    pass(unit, ring, nowNs);
                }
            }
        }
        requestWake(nowNs);
    }

    /** The hold interval ended: visit the token, then park it (an idle ring's leader) or pass it on. */
    private void pass(RingUnit unit, Ring ring, long nowNs) {
        Token token = ring.held;
        int idle = idleRings(unit);
        if (ring.level == 0) {
            visitor.visit(token, unit, nowNs);
        } else {
            leadersVisitor.visit(token, unit);
        }
        startRegenerationClocks(unit, idle, nowNs);
        // What a visit of one ring gave a leader to do moves the other ring's token if it is parked here.
        Ring other = ring.level == 0 ? unit.upper : unit.local;
        if (hasWork(unit, other)) {
            wake(other, nowNs);
        }
        boolean quiet = !ring.workSinceVisit;
        ring.workSinceVisit = false;
        if (quiet && ring.isLeader() && token.senders.isEmpty() && token.records.isEmpty()
                && token.idleRounds >= config.parkAfterIdleRounds()) {
            ring.park();
            counters.increment(QsmCounter.QSM_TOKENS_PARKED);
            return;
        }
        int next = ring.next();
        if (next == self) {
            ring.forwardAtNs = nowNs + config.tokenIntervalNs(); // alone: the ring is this member
            return;
        }
        int length = token.write(tokenOut, self);
        counters.increment(QsmCounter.QSM_TOKENS_SENT);
        outbox.unicast(next, tokenFrame, 0, length);
        ring.release(nowNs);
    }

    /**
     * Whether this member has work for {@code ring}: in its partition's (or unsplit unit's) ring, packets of its own
     * not acknowledged yet or losses (and, as a partition leader, the unit's unacknowledged senders and losses to
     * pass on); in the leaders' ring, the latter. A member with work and no token makes one after the timeout.
     */
    private boolean hasWork(RingUnit unit, Ring ring) {
        if (!ring.isMember()) {
            return false;
        }
        boolean leads = unit.leadsPartition() && unit.leader.hasWork();
        return ring.level == 0 ? leads || sendBuffer.size(unit.group) > 0 || missing.hasGroup(unit.group) : leads;
    }

    @Override
    public long nextDeadlineNs() {
        long next = Math.min(receiver.nextRevealNs(), streams.nextPruneNs());
        for (RingUnit unit : units.values()) {
            for (Ring ring : unit.rings) {
                if (ring.held != null) {
                    next = Math.min(next, ring.forwardAtNs);
                } else if (hasWork(unit, ring)) {
                    next = Math.min(next, ring.regenerateAtNs(config));
                }
            }
        }
        return next;
    }

    private void requestWake(long nowNs) {
        wakes.request(nextDeadlineNs(), nowNs);
    }

    // ---------------------------------------------------------------- introspection

    /** Whether this node holds the token of its ring of {@code group} (its partition's) now (parked or not). */
    public boolean holdsToken(int group) {
        RingUnit unit = units.get(group);
        return unit != null && unit.local.held != null;
    }

    /** Whether this node holds the token of its ring of {@code group} (its partition's) parked. */
    public boolean tokenParked(int group) {
        RingUnit unit = units.get(group);
        return unit != null && unit.local.held != null && unit.local.parked;
    }

    /** Whether this node holds the token of the leaders' ring of {@code group} parked. */
    public boolean leadersTokenParked(int group) {
        RingUnit unit = units.get(group);
        return unit != null && unit.upper.held != null && unit.upper.parked;
    }

    /** How many partitions this node sees {@code group}'s ring unit split into (1: one flat ring). */
    public int partitions(int group) {
        RingUnit unit = units.get(group);
        return unit == null ? 0 : unit.partitions();
    }

    /** Sent packets of {@code group} still kept for recovery. */
    public int sendBufferSize(int group) {
        return sendBuffer.size(group);
    }

    /** Losses waiting for recovery now. */
    public int pendingLosses() {
        return missing.size();
    }

    @Override
    public Map<String, Long> bufferUsage() {
        Map<String, Long> usage = new LinkedHashMap<>();
        usage.put("sendBufferPackets", sendBuffer.packets());
        usage.put("cachePackets", (long) cache.size());
        usage.put("cacheBytes", cache.memoryBytes());
        usage.put("pendingLosses", (long) missing.size());
        usage.put("streams", (long) streams.size());
        return usage;
    }
}
