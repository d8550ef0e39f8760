package io.ricochet.lecnak;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.OriginSeals;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.StreamTable;
import io.ricochet.engine.WakeRequests;
import io.ricochet.fountain.backup.FountainCounter;
import io.ricochet.fountain.backup.FountainReceiver;
import io.ricochet.fountain.backup.FountainSender;
import io.ricochet.lec.LecCounter;
import io.ricochet.lec.LecReceiver;
import io.ricochet.lec.MultiGroupView;
import io.ricochet.lec.PacketSource;
import io.ricochet.lec.RepairBins;
import io.ricochet.lec.RepairPlan;
import io.ricochet.lec.tuning.GroupTuning;
import io.ricochet.lec.tuning.RLimit;
import io.ricochet.lec.tuning.RateOfFireTuner;
import io.ricochet.nak.FailedSenderTails;
import io.ricochet.nak.JoinPoints;
import io.ricochet.nak.NakCounter;
import io.ricochet.nak.NakRequester;
import io.ricochet.nak.NakResponder;
import io.ricochet.nak.SessionAnnouncer;
import io.ricochet.nak.Stability;
import io.ricochet.nak.StabilityReporter;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FountainFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import io.ricochet.wire.RepairFlyweight;
import io.ricochet.wire.StreamListFlyweight;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.agrona.collections.Long2LongHashMap;

/**
 * The Ricochet protocol engine of one node: LEC (sections 4.1, 4.2.1-4.2.5, 4.2.8) with the NAK layer behind it
 * (4.2.7), sans I/O. See {@code docs/design/lec.md} for the invariants and the step-by-step rules.
 */
public final class RicochetEngine
        implements ProtocolEngine, PacketSource, SessionAnnouncer.Handler, FountainReceiver.Packets {
    /** With the fountain backup: ranges decoded at once at a receiver. */
    static final int FOUNTAIN_DECODERS = 8;
    /** With the fountain backup: a sender's range is coded once no NAK extended it for this long. */
    static final long FOUNTAIN_GATHER_NS = 2_000_000L;

    private final int self;
    private final RicochetConfig config;
    private final Outbox outbox;
    private final Counters counters;
    private final DataSender dataSender;
    private final MultiGroupView view;
    private final RepairBins bins;
    private final LecReceiver lec;
    private final StreamTable streams;
    private final NakRequester losses;
    private final NakResponder responder;
    private final SessionAnnouncer sessions;
    private final SessionBatch sessionBatch;
    /** Streams of senders that were in a group before this node: not started before their join point. */
    private final JoinPoints joinPoints;
    /** Per group this node is in: its next seqno there when its join took effect (what FROM_ITS_JOIN asks). */
    private final Long2LongHashMap joinedAt = new Long2LongHashMap(-1);
    /** Receiver side of stability (STABLE reports), and the sender side the retransmit buffer follows; or null. */
    private final StabilityReporter stability;
    private final Stability resolvedByMembers;
    private final FailedSenderTails tails;
    private final long retireAfterNs;
    /** The view as {@link StreamTable} asks it, made once (not a new method reference per packet). */
    private final StreamTable.Roster roster;
    private final PacketStore dataCache;
    private final Admission<Channel> admission;
    private final WakeRequests wakes;
    private final OriginSeals seals;
    /** The fountain backup behind LEC, sender and receiver halves; both null when it is off. */
    private final FountainSender fountainSender;
    private final FountainReceiver fountainReceiver;
    private final FountainFlyweight fountain = new FountainFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final RepairFlyweight repair = new RepairFlyweight();
    private final PacketRefFlyweight ref = new PacketRefFlyweight();
    private final StreamListFlyweight stable = new StreamListFlyweight();
    /** Sets each group's c from the losses seen (rate-of-fire tuning); null when tuning is off. */
    private final RateOfFireTuner tuner;
    private long planVersion = -1;
    /** A tuned c changed since the plan was computed. */
    private boolean planStale;

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param rng    the seeded source of every random choice this engine makes
     * @param outbox where the engine's actions go
     */
    public RicochetEngine(int self, RicochetConfig config, RandomGenerator rng, Outbox outbox) {
        this(self, config, OriginSeals.NONE, rng, outbox);
    }

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param seals  the origins' seals repairs carry and rebuilt packets are checked against ({@link OriginSeals#NONE}
     *               in an unauthenticated cluster); when they have a length, every frame given to {@link #onPacket}
     *               is followed in its buffer by its datagram's trailer
     * @param rng    the seeded source of every random choice this engine makes
     * @param outbox where the engine's actions go
     * @throws IllegalArgumentException if a repair of r sealed entries over the largest payload does not fit a frame
     */
    public RicochetEngine(int self, RicochetConfig config, OriginSeals seals, RandomGenerator rng, Outbox outbox) {
        RicochetConfig.requireRepairFits(config.r(), config.maxPayload(), seals.length(), config.maxFrameLength());
        this.self = self;
        this.seals = seals;
        this.config = config;
        this.counters = new Counters(RicochetProtocol.counters(config.fountainBackup()));
        this.tuner = config.tuning().enabled() ? new RateOfFireTuner(config.tuning(), config.r(),
                RicochetConfig.maxR(config.maxPayload(), seals.length(), config.maxFrameLength()), config::c) : null;
        this.outbox = tuner == null ? outbox : new GiveUpWatch(outbox, tuner);
        this.dataSender = new DataSender(self, config.maxPayload(), counters, this.outbox);
        this.view = new MultiGroupView(self);
        this.bins = new RepairBins(self, tuner == null ? config.r() : tuner.r(), config.stagger(), config.maxPayload(),
                seals.length(), rng, counters, this.outbox);
        this.lec = new LecReceiver(config.repairBufferCapacity(), config.maxPayload(), seals.length(), counters, this);
        this.streams = new StreamTable(config.streamWindow());
        this.losses = new NakRequester(self, config.nakSettings(), counters, this.outbox, streams,
                config.maxPayload());
        this.responder = new NakResponder(self, config.retransmitCapacity(), config.nakSettings().giveUpAfterNs(),
                config.nakSettings().rateLimit(), config.maxPayload(), true, dataSender::sentTo, counters,
                this.outbox);
        if (config.stabilityEnabled()) {
            this.stability = new StabilityReporter(self, config.stabilityIntervalNs(),
                    config.stabilityEvery(), counters, this.outbox, streams);
            this.resolvedByMembers = new Stability(self, view::members);
            responder.useStability(resolvedByMembers, config.sendWindow());
        } else {
            this.stability = null;
            this.resolvedByMembers = null;
        }
        this.tails = new FailedSenderTails(self, counters, this.outbox, streams, losses);
        this.retireAfterNs = config.nakSettings().departedStreamNs();
        this.roster = view::isListed;
        this.joinPoints = new JoinPoints(self, counters, this.outbox);
        this.sessions = config.sessionsEnabled() ? new SessionAnnouncer(config.sessionDelayNs()) : null;
        this.sessionBatch = new SessionBatch(self, view, this.outbox, config.maxFrameLength());
        this.dataCache = new PacketStore(config.dataCacheCapacity(), config.maxPayload(), counters,
                EngineCounter.DATA_CACHE_EVICTIONS);
        this.admission = new Admission<>(dataCache, this.outbox, losses, this::account, counters);
        this.wakes = new WakeRequests(this.outbox);
        if (config.fountainBackup()) {
            this.fountainSender = new FountainSender(self, config.stagger() * config.r(),
                    FountainFlyweight.maxPackets(config.maxPayload(), config.maxFrameLength()), config.maxPayload(),
                    FOUNTAIN_GATHER_NS, config.nakSettings().rateLimit(), responder.buffer(), counters, this.outbox,
                    responder::answer);
            responder.useFountain(fountainSender);
            this.fountainReceiver = new FountainReceiver(FOUNTAIN_DECODERS, FountainFlyweight.MAX_PACKETS, counters,
                    this, config.maxPayload());
        } else {
            this.fountainSender = null;
            this.fountainReceiver = null;
        }
    }

    @Override
    public int nodeId() {
        return self;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public long repairXors() {
        return counters.get(LecCounter.BIN_XORS);
    }

    public RicochetConfig config() {
        return config;
    }

    public MultiGroupView view() {
        return view;
    }

    // ---------------------------------------------------------------- application

    @Override
    public long send(int group, byte[] payload, int offset, int length, long nowNs) {
        long seqno = dataSender.send(view.isMember(group), group, payload, offset, length);
        responder.sent(group, seqno, payload, offset, length, nowNs);
        if (sessions != null) {
            sessions.sent(group, seqno, nowNs);
            requestWake(nowNs);
        }
        return seqno;
    }

    // ---------------------------------------------------------------- membership

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        if (event.kind() == MembershipEvent.Kind.JOIN) {
            if (node == self) {
                // Our sequence numbers continue if we left and come back: this process is one incarnation.
                if (view.join(group, self)) {
                    joinedAt.put(group, dataSender.sentTo(group));
                    awaitJoinPoints(group, nowNs);
                }
                return;
            }
            boolean fresh = view.join(group, node);
            boolean member = view.isMember(group);
            StreamTable.Stream replaced = streams.joined(node, group, event.incarnation(), fresh, member,
                    event.streamStart());
            if (replaced != null) {
                forgetIncarnation(node, group);
            }
            if (streams.find(node, group) != null) {
                joinPoints.cancel(node, group); // it joined after us (or restarted): its stream starts where known
            } else if (member && (fresh || replaced != null)) {
                // It joined after us, but may have been in the group before (its numbering continues): it says where
                // its stream continued when its join took effect, and everything from there is for us.
                joinPoints.awaitFromItsJoin(node, group, nowNs);
            }
            return;
        }
        if (event.kind() == MembershipEvent.Kind.FAIL) {
            tails.senderFailed(group, node, view.isMember(group));
        }
        // Kept while its tail may still be found and its losses given up, then pruned (unless it comes back).
        if (node == self) {
            streams.retireGroup(group, nowNs + retireAfterNs);
        } else {
            streams.retire(node, group, nowNs + retireAfterNs);
        }
        view.leave(group, node);
        if (node == self) {
            joinPoints.cancelGroup(group);
        } else {
            joinPoints.cancel(node, group);
        }
        if (resolvedByMembers != null && node != self) {
            resolvedByMembers.forget(group, node);
        }
        if (node == self) {
            joinedAt.remove(group);
            if (tuner != null) {
                tuner.forget(group);
            }
            responder.forgetGroup(group);
            if (sessions != null) {
                sessions.left(group);
            }
        }
    }

    /**
     * This node joined {@code group} (or came back to it): every member listed there was in it before us, so its
     * stream here starts at the join point it gives (JoinPoints). A stream still held from an earlier membership is
     * dropped first: what its sender multicast while this node was away was not addressed to it.
     */
    private void awaitJoinPoints(int group, long nowNs) {
        for (int node : view.members(group)) {
            if (node == self) {
                continue;
            }
            if (streams.drop(node, group)) {
                counters.increment(EngineCounter.STREAMS_PRUNED);
                forgetIncarnation(node, group);
            }
            joinPoints.await(node, group, -1, nowNs);
        }
    }

    /**
     * A sender restarted: the ids of its old incarnation will be reused. Its old losses can no longer be recovered
     * (they are reported lost), and buffered repairs naming them are dropped so they never meet the new packets.
     */
    private void forgetIncarnation(int origin, int group) {
        losses.forgetStream(origin, group);
        lec.forgetStream(origin, group);
        if (fountainReceiver != null) {
            fountainReceiver.forgetStream(origin, group);
        }
    }

    private void ensurePlan() {
        long version = view.version();
        if (version != planVersion || planStale) {
            planVersion = version;
            planStale = false;
            if (tuner != null) {
                bins.useR(tuner.r());
            }
            bins.apply(RepairPlan.compute(view.regions(), view::groupSize, tuner == null ? config::c : tuner::c));
        }
    }

    // ---------------------------------------------------------------- network input

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (!FrameValidator.isValid(buffer, offset, length)) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        switch (header.wrap(buffer, offset).type()) {
            case FrameType.DATA:
                onData(data.wrap(buffer, offset), Channel.DATA, nowNs);
                break;
            case FrameType.RETRANSMIT:
                onData(data.wrap(buffer, offset), Channel.RETRANSMIT, nowNs);
                break;
            case FrameType.REPAIR:
                lec.onRepair(repair.wrap(buffer, offset), nowNs);
                break;
            case FrameType.NAK:
                PacketRefFlyweight nak = ref.wrap(buffer, offset);
                if (view.isListed(nak.group(), nak.source())) {
                    responder.onNak(nak, nowNs);
                } else {
                    counters.increment(EngineCounter.NON_MEMBER); // Only a member of the group may ask.
                }
                break;
            case FrameType.GONE:
                losses.onGone(ref.wrap(buffer, offset), nowNs);
                break;
            case FrameType.SESSION:
                onSession(ref.wrap(buffer, offset), nowNs);
                break;
            case FrameType.SESSIONS:
                onSessions(stable.wrap(buffer, offset), nowNs);
                break;
            case FrameType.TAIL:
                PacketRefFlyweight tail = ref.wrap(buffer, offset);
                tails.onTail(tail, view.isMember(tail.group()), nowNs);
                break;
            case FrameType.STABLE:
                onStable(stable.wrap(buffer, offset));
                break;
            case FrameType.FOUNTAIN:
                onFountain(fountain.wrap(buffer, offset), nowNs);
                break;
            case FrameType.JOIN_PROBE:
                onJoinProbe(ref.wrap(buffer, offset));
                break;
            case FrameType.JOIN_POINT:
                onJoinPoint(ref.wrap(buffer, offset), nowNs);
                break;
            default:
                counters.increment(EngineCounter.INVALID_PACKETS);
                break;
        }
        lec.drainReady(nowNs);
        requestWake(nowNs);
    }

    /**
     * A received data packet is cached as the lent datagram itself ({@link PacketStore#lend}): the one copy of its
     * payload the receive path made is the socket's, into the receive buffer.
     */
    @Override
    public byte[] onLentPacket(byte[] datagram, int length, long nowNs) {
        dataCache.lend(datagram);
        try {
            onPacket(datagram, 0, length, nowNs);
        } finally {
            datagram = dataCache.endLending();
        }
        return datagram;
    }

    /** How a payload reached {@link #accept}. */
    private enum Channel { DATA, RETRANSMIT, XOR, XOR_COMBINED, FOUNTAIN }

    private void onData(DataFlyweight packet, Channel channel, long nowNs) {
        if (!Admission.acceptable(packet, channel == Channel.RETRANSMIT, view.isMember(packet.group()),
                config.maxPayload(), counters)) {
            return;
        }
        // A DATA frame's seal is its datagram's trailer, right after the frame (see the constructor).
        accept(new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                packet.payloadOffset(), packet.payloadLength(), packet.offset() + packet.frameLength(), channel,
                nowNs);
    }

    /**
     * The one path by which a packet becomes delivered, whatever brought it: the {@link Admission} (dedupe, gap
     * discovery, cache, accounting, delivery), then repair bins (received data only) and buffered repairs.
     */
    private void accept(PacketId id, byte[] payload, int offset, int length, int sealOffset, Channel channel,
                        long nowNs) {
        if (id.origin() == self) {
            // Our own packet coming back (multicast loopback or a forged frame): we have it already.
            counters.increment(EngineCounter.DUPLICATES);
            return;
        }
        StreamTable.Stream stream = stream(id.origin(), id.group(), id.seqno(), nowNs);
        if (stream == null) {
            return;
        }
        ReceiveWindow window = stream.window();
        Admission.Outcome outcome = admission.admit(window, id, payload, offset, length, channel, nowNs);
        if (!outcome.delivered()) {
            return;
        }
        if (stability != null) {
            stability.delivered(stream, nowNs);
        }
        if (channel == Channel.DATA) {
            if (tuner != null && tuner.poll(nowNs, view::groupSize)) {
                planStale = true;
            }
            ensurePlan();
            bins.add(id.origin(), id.group(), id.seqno(), payload, offset, length, payload, sealOffset);
        }
        lec.onAvailable(id, payload, offset, length);
    }

    /**
     * The stream of (origin, group), or null (counted): from a sender the GMS does not list in the group, or one
     * whose join point this node awaits (asked for now if it was not; {@code seqno} is kept for when it comes). A
     * stream of a sender that joined after this node was created at 0 when it joined.
     */
    private StreamTable.Stream stream(int origin, int group, long seqno, long nowNs) {
        StreamTable.Stream stream = streams.find(origin, group);
        if (stream != null) {
            return stream;
        }
        if (!roster.isListed(group, origin)) {
            counters.increment(EngineCounter.UNLISTED_ORIGINS);
            return null;
        }
        counters.increment(NakCounter.AWAITING_JOIN_POINT);
        joinPoints.await(origin, group, seqno, nowNs);
        return null;
    }

    /** A new packet is being delivered: counts it and what it recovered. */
    private Delivery account(PacketId id, Channel channel, long nowNs) {
        if (channel == Channel.DATA) {
            counters.increment(EngineCounter.DATA_RECEIVED);
        }
        counters.increment(EngineCounter.DELIVERED);
        long discoveredNs = losses.resolveDiscovered(id);
        boolean wasMissing = discoveredNs != NakRequester.NOT_PENDING;
        if (tuner != null) {
            if (channel == Channel.DATA) {
                // Data that came itself was not lost, even if it was found missing first (a late arrival: a gap, or
                // a repair naming it, read before it): no loss LEC failed to recover. On real sockets late arrivals
                // are as many as the losses, and taken for LEC's failures they made the tuner raise c at 0.1 %.
                tuner.dataReceived(id.group());
            } else if (wasMissing) {
                tuner.resolved(id.group(), channel == Channel.XOR || channel == Channel.XOR_COMBINED,
                        nowNs - discoveredNs);
            }
        }
        if (!wasMissing) {
            return Delivery.DIRECT;
        }
        switch (channel) {
            case XOR_COMBINED:
                counters.increment(LecCounter.RECOVERED_BY_COMBINING);
                counters.increment(LecCounter.RECOVERED_BY_XOR);
                return Delivery.LEC;
            case XOR:
                counters.increment(LecCounter.RECOVERED_BY_XOR);
                return Delivery.LEC;
            case RETRANSMIT:
                counters.increment(EngineCounter.RECOVERED_BY_NAK);
                return Delivery.NAK;
            case FOUNTAIN:
                counters.increment(FountainCounter.FOUNTAIN_RECOVERED);
                return Delivery.FOUNTAIN;
            default:
                counters.increment(EngineCounter.LATE_ARRIVALS);
                return Delivery.LATE;
        }
    }

    /** Registers as lost every unresolved seqno from the stream's highest known one up to {@code last}. */
    private void discoverUpTo(StreamTable.Stream stream, long last, long nowNs) {
        losses.discoverUpTo(stream.origin(), stream.group(), stream.window(), last, nowNs);
    }

    // ---------------------------------------------------------------- PacketSource (for LEC)

    /**
     * Slots below the data cache's capacity are in the data cache; the ones above are this node's own packets in
     * the retransmit buffer (a neighbour's repair may include what this node sent).
     */
    @Override
    public int lookup(int origin, int group, long seqno, long nowNs) {
        if (origin == self) {
            int own = responder.buffer().find(new PacketId(origin, group, seqno));
            return own >= 0 ? dataCache.capacity() + own : UNAVAILABLE;
        }
        if (!view.isMember(group)) {
            counters.increment(EngineCounter.NON_MEMBER);
            return REJECT;
        }
        StreamTable.Stream stream = stream(origin, group, seqno, nowNs);
        if (stream == null) {
            return REJECT;
        }
        if (stream.window().isJump(seqno)) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return REJECT;
        }
        discoverUpTo(stream, seqno, nowNs);
        PacketId id = new PacketId(origin, group, seqno);
        if (admission.isNew(stream.window(), id)) {
            return MISSING;
        }
        int slot = dataCache.find(id);
        return slot >= 0 ? slot : UNAVAILABLE;
    }

    @Override
    public byte[] payload(int slot) {
        int own = slot - dataCache.capacity();
        return own >= 0 ? responder.buffer().payload(own) : dataCache.payload(slot);
    }

    @Override
    public int length(int slot) {
        int own = slot - dataCache.capacity();
        return own >= 0 ? responder.buffer().length(own) : dataCache.length(slot);
    }

    @Override
    public int offset(int slot) {
        int own = slot - dataCache.capacity();
        return own >= 0 ? responder.buffer().offset(own) : dataCache.offset(slot);
    }

    /** A packet rebuilt by XOR is delivered only if its bytes are the ones its origin sealed. */
    @Override
    public void recovered(PacketId id, byte[] payload, int offset, int length, byte[] seal, int sealOffset,
                          boolean combined, long nowNs) {
        if (!seals.verify(id.origin(), id.group(), id.seqno(), payload, offset, length, seal, sealOffset)) {
            counters.increment(LecCounter.RECOVERIES_UNSEALED);
            return;
        }
        accept(id, payload, offset, length, -1, combined ? Channel.XOR_COMBINED : Channel.XOR, nowNs);
    }

    // ---------------------------------------------------------------- fountain backup

    /**
     * A symbol of its source's own packets: taken only with the backup on (a node without it counts the frame
     * invalid: every member must agree), from a sender listed in a group this node is a member of.
     */
    private void onFountain(FountainFlyweight symbol, long nowNs) {
        int origin = symbol.source();
        if (fountainReceiver == null) {
            counters.increment(EngineCounter.INVALID_PACKETS);
        } else if (origin == self) {
            counters.increment(EngineCounter.DUPLICATES); // our own symbol, looped back by the multicast socket
        } else if (!view.isMember(symbol.group()) || !view.isListed(symbol.group(), origin)) {
            counters.increment(EngineCounter.NON_MEMBER);
        } else {
            fountainReceiver.onSymbol(symbol, nowNs);
        }
    }

    @Override
    public boolean missing(int origin, int group, long seqno) {
        StreamTable.Stream stream = streams.find(origin, group);
        if (stream == null || seqno > stream.window().highest()) {
            return false;
        }
        return admission.isNew(stream.window(), new PacketId(origin, group, seqno));
    }

    @Override
    public int copyHeld(int origin, int group, long seqno, byte[] dst, int offset) {
        int slot = dataCache.find(new PacketId(origin, group, seqno));
        if (slot < 0) {
            return -1;
        }
        int length = dataCache.length(slot);
        System.arraycopy(dataCache.payload(slot), dataCache.offset(slot), dst, offset, length);
        return length;
    }

    /** Every symbol came from the packet's origin, authenticated as such (as a RETRANSMIT): no seal to check. */
    @Override
    public void rebuilt(int origin, int group, long seqno, byte[] payload, int offset, int length, long nowNs) {
        accept(new PacketId(origin, group, seqno), payload, offset, length, -1, Channel.FOUNTAIN, nowNs);
    }

    // ---------------------------------------------------------------- join points

    /**
     * A member asks where our stream in a group starts for it: a member that joined, our next seqno there; one that
     * saw us join, where our stream continued when our join took effect here (our next seqno if we are not in the
     * group now: we have sent nothing in it since).
     */
    private void onJoinProbe(PacketRefFlyweight probe) {
        if (probe.origin() != self || probe.source() == self) {
            counters.increment(EngineCounter.INVALID_PACKETS); // about another node's stream, or looped back
            return;
        }
        int group = probe.group();
        long next = dataSender.sentTo(group);
        long joined = joinedAt.get(group);
        long start = probe.seqno() == JoinPoints.FROM_ITS_JOIN && joined >= 0 ? joined : next;
        joinPoints.answer(probe.source(), group, start, probe.nonce());
    }

    /** A sender's answer to our probe: its stream here starts at the seqno named; what it showed meanwhile is lost. */
    private void onJoinPoint(PacketRefFlyweight answer, long nowNs) {
        if (answer.origin() != answer.source() || answer.origin() == self) {
            counters.increment(EngineCounter.INVALID_PACKETS); // a sender speaks for its own stream only
            return;
        }
        long seen = joinPoints.take(answer);
        if (seen == JoinPoints.NOT_AWAITED) {
            return;
        }
        StreamTable.Stream stream = streams.startAt(answer.origin(), answer.group(), answer.seqno());
        if (seen >= stream.window().base() && !stream.window().isJump(seen)) {
            discoverUpTo(stream, seen, nowNs);
        }
    }

    /** Join points this node still waits for in {@code group}: senders whose data it cannot take yet. */
    @Override
    public int awaitingJoinPoints(int group) {
        return joinPoints.awaiting(group);
    }

    // ---------------------------------------------------------------- NAK layer

    private void onSession(PacketRefFlyweight session, long nowNs) {
        if (isOwnersAnnouncement(session.origin(), session.source(), 1)) {
            onAnnouncement(session.origin(), session.group(), session.seqno(), nowNs);
        }
    }

    /** Several groups' announcements in one frame: each entry is taken as that group's SESSION. */
    private void onSessions(StreamListFlyweight sessions, long nowNs) {
        if (isOwnersAnnouncement(sessions.origin(), sessions.source(), sessions.count())) {
            for (int i = 0, count = sessions.count(); i < count; i++) {
                onAnnouncement(sessions.origin(), sessions.group(i), sessions.seqno(i), nowNs);
            }
        }
    }

    /**
     * True for an announcement frame of {@code entries} announcements that its sender made of its own streams; false,
     * uncounted, for this node's own looped back by the multicast socket, and false, counted invalid, for one about
     * another node's streams.
     */
    private boolean isOwnersAnnouncement(int origin, int source, int entries) {
        if (origin == self && source == self) {
            return false;
        }
        counters.increment(NakCounter.SESSION_FRAMES_RECEIVED);
        if (origin != source || origin == self) {
            counters.add(NakCounter.SESSIONS_RECEIVED, entries);
            counters.increment(EngineCounter.INVALID_PACKETS);
            return false;
        }
        return true;
    }

    /** {@code origin} announced that it sent up to {@code seqno} in {@code group}, and nothing since. */
    private void onAnnouncement(int origin, int group, long seqno, long nowNs) {
        counters.increment(NakCounter.SESSIONS_RECEIVED);
        if (!view.isMember(group)) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        // An announcement names no packet, only how far the stream went: it must not start a stream here. A stream
        // first seen from it would start at its seqno, and the data before it (read later, or lost) would be taken
        // for history and never delivered nor reported. A stream this node expects (its sender's join point is in)
        // is already in the table.
        StreamTable.Stream stream = streams.find(origin, group);
        if (stream == null) {
            if (joinPoints.isAwaited(origin, group)) {
                joinPoints.await(origin, group, seqno, nowNs);
            }
            return;
        }
        if (stream.window().isJump(seqno)) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return;
        }
        discoverUpTo(stream, seqno, nowNs);
    }

    /** An announcement the {@link SessionAnnouncer} found due: sent with the others of its poll. */
    @Override
    public void announce(int group, long highestSeqno, long nowNs) {
        if (!view.isMember(group)) {
            return;
        }
        counters.increment(NakCounter.SESSIONS_SENT);
        sessionBatch.add(group, highestSeqno);
    }

    /** A member's word on how far it resolved this node's streams: each entry counts if it is a member there. */
    private void onStable(StreamListFlyweight report) {
        counters.increment(NakCounter.STABLES_RECEIVED);
        if (report.origin() != self) {
            counters.increment(EngineCounter.INVALID_PACKETS); // About another node's streams: not for us.
            return;
        }
        for (int i = 0, count = report.count(); i < count; i++) {
            if (view.isListed(report.group(i), report.source())) {
                responder.onStable(report.source(), report.group(i), report.seqno(i), report.progress(i));
            } else {
                counters.increment(EngineCounter.NON_MEMBER); // Only a member's word counts.
            }
        }
    }

    // ---------------------------------------------------------------- timers

    @Override
    public void onTimer(long nowNs) {
        losses.poll(nowNs);
        joinPoints.poll(nowNs);
        if (fountainSender != null) {
            fountainSender.poll(nowNs);
        }
        streams.pruneDue(nowNs, (origin, group) -> {
            counters.increment(EngineCounter.STREAMS_PRUNED);
            forgetIncarnation(origin, group);
        });
        if (sessions != null) {
            sessions.poll(nowNs, this);
            counters.add(NakCounter.SESSION_FRAMES_SENT, sessionBatch.flush(nowNs, sessions, this));
        }
        if (stability != null) {
            stability.poll(nowNs);
        }
        lec.drainReady(nowNs);
        requestWake(nowNs);
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
    public long sendReadyAtNs(long nowNs) {
        return responder.readyAtNs(nowNs);
    }

    @Override
    public long sendReadyAtNs(int group, long nowNs) {
        return responder.readyAtNs(group, nowNs);
    }

    @Override
    public long nextDeadlineNs() {
        long next = Math.min(Math.min(losses.nextDeadlineNs(), streams.nextPruneNs()), joinPoints.nextDeadlineNs());
        if (stability != null) {
            next = Math.min(next, stability.nextDeadlineNs());
        }
        if (fountainSender != null) {
            next = Math.min(next, fountainSender.nextDeadlineNs());
        }
        return sessions == null ? next : Math.min(next, sessions.nextDeadlineNs());
    }

    private void requestWake(long nowNs) {
        wakes.request(nextDeadlineNs(), nowNs);
    }

    // ---------------------------------------------------------------- introspection

    /** Each group's rate-of-fire and why: tuned ones with the tuner's reason; empty when tuning is off. */
    public List<GroupTuning> tuning() {
        return tuner == null ? List.of() : tuner.snapshot();
    }

    /** The r this node's repair bins use now (the tuned one, or the configured one). */
    public int rateOfFireR() {
        return bins.r();
    }

    /** What holds the tuned r where it is; null when tuning is off. */
    public RLimit rateOfFireRLimit() {
        return tuner == null ? null : tuner.rLimit();
    }

    /** The c this node's repair bins use for {@code group} now (the tuned one, or the configured one). */
    public double rateOfFire(int group) {
        return tuner == null ? config.c(group) : tuner.c(group);
    }

    /** Losses waiting for recovery now. */
    public int pendingLosses() {
        return losses.pending();
    }

    /** Memory held by each bounded buffer, in bytes or entries as named. */
    public Map<String, Long> bufferUsage() {
        Map<String, Long> usage = new java.util.LinkedHashMap<>();
        usage.put("dataCachePackets", (long) dataCache.size());
        usage.put("dataCacheBytes", dataCache.memoryBytes());
        usage.put("retransmitPackets", (long) responder.bufferedPackets());
        usage.put("retransmitBytes", responder.memoryBytes());
        usage.put("bufferedRepairs", (long) lec.bufferedRepairs());
        usage.put("repairBufferBytes", lec.memoryBytes());
        usage.put("repairBins", (long) bins.binCount());
        usage.put("repairBinBytes", bins.memoryBytes());
        usage.put("pendingLosses", (long) losses.pending());
        usage.put("streams", (long) streams.size());
        if (fountainReceiver != null) {
            usage.put("fountainRangesSending", (long) fountainSender.openRanges());
            usage.put("fountainRangesDecoding", (long) fountainReceiver.decoding());
            usage.put("fountainDecoderBytes", fountainReceiver.memoryBytes());
        }
        return usage;
    }
}
