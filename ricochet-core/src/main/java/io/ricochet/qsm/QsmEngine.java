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
import io.ricochet.wire.QsmTokenFlyweight;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node's QSM engine, sans I/O: DATA multicast with per-(sender, group) seqnos, and recovery by a token that
 * circulates around the ring of each group's members (ordered by node id) every {@code tokenInterval} per hop. See
 * {@code docs/design/qsm.md}. Owned by one thread; time is an argument; it draws nothing at random.
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
    private final Map<Integer, Ring> rings = new TreeMap<>();
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
        this.visitor = new TokenVisitor(self, config, streams, missing, receiver, cache, sendBuffer,
                dataSender::sentTo, counters, outbox);
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
        Ring ring = rings.get(group);
        boolean idle = !hasWork(group);
        long seqno = dataSender.send(ring != null && ring.isMember(), group, payload, offset, length);
        sendBuffer.put(group, seqno, payload, offset, length);
        startRegenerationClock(ring, idle, nowNs);
        workArrived(ring, nowNs);
        requestWake(nowNs);
        return seqno;
    }

    @Override
    public long sentTo(int group) {
        return dataSender.sentTo(group);
    }

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        Ring ring = rings.computeIfAbsent(group, g -> new Ring(g, self));
        if (event.kind() == MembershipEvent.Kind.JOIN) {
            boolean fresh = ring.members().add(node);
            if (node == self) {
                ring.lastSeenNs = nowNs;
            } else {
                StreamTable.Stream replaced = streams.joined(node, group, event.incarnation(), fresh,
                        ring.isMember());
                if (replaced != null) {
                    receiver.abandon(node, group); // a restarted sender: its old losses cannot be recovered
                }
            }
        } else if (node == self) {
            receiver.abandon(-1, group);
            sendBuffer.dropGroup(group);
            streams.retireGroup(group, nowNs + RETIRE_AFTER_NS);
            ring.release(nowNs);
            ring.members().remove(self);
        } else {
            ring.members().remove(node);
            streams.retire(node, group, nowNs + RETIRE_AFTER_NS);
        }
        requestWake(nowNs);
    }

    private boolean isListed(int group, int node) {
        Ring ring = rings.get(group);
        return ring != null && ring.members().contains(node);
    }

    // ---------------------------------------------------------------- network input

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (FrameValidator.checkQsm(buffer, offset, length) != FrameValidator.Verdict.OK) {
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
        Ring ring = rings.get(packet.group());
        if (Admission.acceptable(packet, false, ring != null && ring.isMember(), config.maxPayload(), counters)) {
            admit(ring, packet, Receiver.Via.DATA, nowNs);
        }
    }

    private void onForward(DataFlyweight packet, long nowNs) {
        counters.increment(QsmCounter.QSM_REPAIRS_RECEIVED);
        Ring ring = rings.get(packet.group());
        if (packet.payloadLength() > config.maxPayload() || packet.origin() == self) {
            counters.increment(packet.origin() == self ? EngineCounter.DUPLICATES : EngineCounter.INVALID_PACKETS);
        } else if (ring == null || !ring.isMember()) {
            counters.increment(EngineCounter.NON_MEMBER);
        } else if (!ring.members().contains(packet.source())) {
            counters.increment(EngineCounter.INVALID_PACKETS); // only a ring peer forwards
        } else {
            admit(ring, packet, Receiver.Via.FORWARD, nowNs);
        }
    }

    private void admit(Ring ring, DataFlyweight packet, Receiver.Via via, long nowNs) {
        StreamTable.Stream stream = streams.getOrCreateListed(packet.origin(), packet.group(), packet.seqno(),
                roster, counters);
        if (stream != null) {
            boolean idle = !hasWork(packet.group());
            receiver.accept(stream, new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                    packet.payloadOffset(), packet.payloadLength(), via, nowNs);
            startRegenerationClock(ring, idle, nowNs);
            workArrived(ring, nowNs);
        }
    }

    /**
     * Work appeared at a member that had none: its regeneration timeout counts from now, not from the last token it
     * saw (which, on a ring that was parked, is long past: it would regenerate at once beside the unparked token).
     */
    private void startRegenerationClock(Ring ring, boolean wasIdle, long nowNs) {
        if (ring != null && wasIdle && hasWork(ring.group)) {
            ring.lastSeenNs = Math.max(ring.lastSeenNs, nowNs);
        }
    }

    /**
     * A packet was sent or arrived in the ring's group: a parked token moves again, and the leader of a ring that
     * never had a token makes the first one.
     */
    private void workArrived(Ring ring, long nowNs) {
        if (ring == null || !ring.isMember()) {
            return;
        }
        ring.workSinceVisit = true;
        if (ring.held == null && ring.bestEpoch < 0 && ring.isLeader()) {
            ring.take(new Token(ring.group, 0, self), nowNs, config.tokenIntervalNs());
        } else {
            ring.unpark(nowNs, config.tokenIntervalNs());
        }
    }

    private void onToken(QsmTokenFlyweight frame, long nowNs) {
        Ring ring = rings.get(frame.group());
        if (ring == null || !ring.isMember()) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        Token token = Token.read(frame);
        if (!ring.members().contains(frame.source()) || !TokenRules.consistent(token)) {
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
        for (Ring ring : rings.values()) {
            if (ring.held != null && !ring.parked && ring.forwardAtNs - nowNs <= 0) {
                pass(ring, nowNs);
            } else if (ring.held == null && ring.isMember() && hasWork(ring.group)
                    && regenerateAtNs(ring) - nowNs <= 0) {
                counters.increment(QsmCounter.QSM_TOKENS_REGENERATED);
                ring.take(new Token(ring.group, ring.bestEpoch + 1, self), nowNs, 0);
                pass(ring, nowNs);
            }
        }
        requestWake(nowNs);
    }

    /** The hold interval ended: visit the token, then park it (an idle ring's leader) or pass it on. */
    private void pass(Ring ring, long nowNs) {
        Token token = ring.held;
        visitor.visit(token, ring.members(), nowNs);
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

    private boolean hasWork(int group) {
        return sendBuffer.size(group) > 0 || missing.hasGroup(group);
    }

    /** A lost token (or a first one the leader never made: it missed all data) is made anew after the timeout. */
    private long regenerateAtNs(Ring ring) {
        return ring.regenerateAtNs(config);
    }

    @Override
    public long nextDeadlineNs() {
        long next = Math.min(receiver.nextRevealNs(), streams.nextPruneNs());
        for (Ring ring : rings.values()) {
            if (ring.held != null) {
                next = Math.min(next, ring.forwardAtNs);
            } else if (ring.isMember() && hasWork(ring.group)) {
                next = Math.min(next, regenerateAtNs(ring));
            }
        }
        return next;
    }

    private void requestWake(long nowNs) {
        wakes.request(nextDeadlineNs(), nowNs);
    }

    // ---------------------------------------------------------------- introspection

    /** Whether this node holds the token of {@code group} now (parked or not). */
    public boolean holdsToken(int group) {
        Ring ring = rings.get(group);
        return ring != null && ring.held != null;
    }

    /** Whether this node holds the token of {@code group} parked. */
    public boolean tokenParked(int group) {
        Ring ring = rings.get(group);
        return ring != null && ring.held != null && ring.parked;
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
