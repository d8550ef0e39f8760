package io.ricochet.ricochet;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.lec.LecCounter;
import io.ricochet.lec.LecReceiver;
import io.ricochet.lec.MultiGroupView;
import io.ricochet.lec.PacketSource;
import io.ricochet.lec.RepairBins;
import io.ricochet.lec.RepairPlan;
import io.ricochet.nak.LossLedger;
import io.ricochet.nak.LossTracker;
import io.ricochet.nak.NakCounter;
import io.ricochet.nak.NakPacer;
import io.ricochet.nak.PendingLoss;
import io.ricochet.nak.SessionAnnouncer;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import io.ricochet.wire.RepairFlyweight;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The Ricochet protocol engine of one node: LEC (sections 4.1, 4.2.1-4.2.5, 4.2.8) with the NAK layer behind it
 * (4.2.7), sans I/O. See {@code docs/design/lec.md} for the invariants and the step-by-step rules.
 */
public final class RicochetEngine
        implements ProtocolEngine, PacketSource, LossTracker.Handler, SessionAnnouncer.Handler {
    private final int self;
    private final RicochetConfig config;
    private final Outbox outbox;
    private final Counters counters = new Counters(RicochetProtocol.COUNTERS);
    private final DataSender dataSender;
    private final MultiGroupView view;
    private final RepairBins bins;
    private final LecReceiver lec;
    private final LossTracker losses;
    private final LossLedger ledger;
    private final SessionAnnouncer sessions;
    private final NakPacer nakPacer;
    private final PacketStore dataCache;
    private final PacketStore retransmitBuffer;
    private final Admission<Channel> admission;
    private final Map<Long, StreamState> streams = new HashMap<>();
    private final Map<Integer, Long> incarnations = new HashMap<>();
    private final byte[] frame = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final RepairFlyweight repair = new RepairFlyweight();
    private final PacketRefFlyweight ref = new PacketRefFlyweight();
    private final DataFlyweight out = new DataFlyweight().wrap(frame, 0);
    private final PacketRefFlyweight outRef = new PacketRefFlyweight().wrap(frame, 0);
    private long planVersion = -1;
    private long requestedWakeNs = Long.MAX_VALUE;

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param rng    the seeded source of every random choice this engine makes
     * @param outbox where the engine's actions go
     */
    public RicochetEngine(int self, RicochetConfig config, RandomGenerator rng, Outbox outbox) {
        this.self = self;
        this.config = config;
        this.outbox = outbox;
        this.dataSender = new DataSender(self, config.maxPayload(), counters, outbox);
        this.view = new MultiGroupView(self);
        this.bins = new RepairBins(self, config.r(), config.stagger(), config.maxPayload(), rng, counters, outbox);
        this.lec = new LecReceiver(config.repairBufferCapacity(), config.maxPayload(), counters, this);
        long firstDelay = config.nakEnabled() ? config.nakTimeoutNs() : config.lecGiveUpNs();
        this.losses = new LossTracker(config.nakEnabled(), firstDelay, config.nakRetryNs(), config.nakMaxAttempts(),
                config.maxPendingLosses());
        this.ledger = new LossLedger(losses, counters, outbox);
        this.nakPacer = new NakPacer(config.nakRateLimit(), Math.max(1, config.nakRateLimit() / 10));
        this.sessions = config.sessionsEnabled() ? new SessionAnnouncer(config.sessionDelayNs()) : null;
        this.dataCache = new PacketStore(config.dataCacheCapacity(), config.maxPayload(), counters,
                EngineCounter.DATA_CACHE_EVICTIONS);
        this.retransmitBuffer = new PacketStore(config.retransmitCapacity(), config.maxPayload(), counters,
                EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
        this.admission = new Admission<>(dataCache, outbox, ledger::discoverUpTo, this::account);
    }

    @Override
    public int nodeId() {
        return self;
    }

    @Override
    public Counters counters() {
        return counters;
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
        retransmitBuffer.put(new PacketId(self, group, seqno), payload, offset, length);
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
                view.join(group, self);
                return;
            }
            incarnations.put(node, event.incarnation());
            boolean fresh = view.join(group, node);
            if (!view.isMember(group)) {
                return; // Listed before we joined: its stream starts at the first packet we see.
            }
            long key = StreamState.key(node, group);
            StreamState stream = streams.get(key);
            if (stream == null ? fresh : stream.incarnation != event.incarnation()) {
                // We saw this sender (or a restart of it) join: its stream starts at 0, so even its first
                // packets can be NAK-ed.
                if (stream != null) {
                    forgetIncarnation(node, group, nowNs);
                }
                streams.put(key, new StreamState(node, group, event.incarnation(), 0, config.streamWindow()));
            }
            return;
        }
        view.leave(group, node);
        if (node == self && sessions != null) {
            sessions.left(group);
        }
    }

    /**
     * A sender restarted: the ids of its old incarnation will be reused. Its old losses can no longer be recovered
     * (they are reported lost), and buffered repairs naming them are dropped so they never meet the new packets.
     */
    private void forgetIncarnation(int origin, int group, long nowNs) {
        for (PendingLoss loss : losses.removeStream(origin, group)) {
            ledger.unrecoverable(loss.id(), loss.discoveredNs());
        }
        lec.forgetStream(origin, group);
    }

    private void ensurePlan() {
        long version = view.version();
        if (version != planVersion) {
            planVersion = version;
            bins.apply(RepairPlan.compute(view.regions(), view::groupSize, config::c));
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
                onNak(ref.wrap(buffer, offset));
                break;
            case FrameType.GONE:
                onGone(ref.wrap(buffer, offset), nowNs);
                break;
            case FrameType.SESSION:
                onSession(ref.wrap(buffer, offset), nowNs);
                break;
            default:
                counters.increment(EngineCounter.INVALID_PACKETS);
                break;
        }
        lec.drainReady(nowNs);
        requestWake(nowNs);
    }

    /** How a payload reached {@link #accept}. */
    private enum Channel { DATA, RETRANSMIT, XOR, XOR_COMBINED }

    private void onData(DataFlyweight packet, Channel channel, long nowNs) {
        if (channel == Channel.DATA && packet.origin() != packet.source()) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (packet.payloadLength() > config.maxPayload()) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!view.isMember(packet.group())) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        if (channel == Channel.RETRANSMIT) {
            counters.increment(EngineCounter.RETRANSMITS_RECEIVED);
        }
        accept(new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                packet.payloadOffset(), packet.payloadLength(), channel, nowNs);
    }

    /**
     * The one path by which a packet becomes delivered, whatever brought it: the {@link Admission} (dedupe, gap
     * discovery, cache, accounting, delivery), then repair bins (received data only) and buffered repairs.
     */
    private void accept(PacketId id, byte[] payload, int offset, int length, Channel channel, long nowNs) {
        if (id.origin() == self) {
            // Our own packet coming back (multicast loopback or a forged frame): we have it already.
            counters.increment(EngineCounter.DUPLICATES);
            return;
        }
        ReceiveWindow window = stream(id.origin(), id.group(), id.seqno()).window;
        Admission.Outcome outcome = admission.admit(window, id, payload, offset, length, channel, nowNs);
        if (outcome != Admission.Outcome.NEW) {
            counters.increment(outcome == Admission.Outcome.DUPLICATE ? EngineCounter.DUPLICATES
                    : EngineCounter.OUT_OF_WINDOW);
            return;
        }
        if (channel == Channel.DATA) {
            ensurePlan();
            bins.add(id.origin(), id.group(), id.seqno(), payload, offset, length);
        }
        lec.onAvailable(id, payload, offset, length);
    }

    /** A new packet is being delivered: counts it and what it recovered. */
    private Delivery account(PacketId id, Channel channel, long nowNs) {
        if (channel == Channel.DATA) {
            counters.increment(EngineCounter.DATA_RECEIVED);
        }
        counters.increment(EngineCounter.DELIVERED);
        if (losses.resolve(id) == null) {
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
            default:
                counters.increment(EngineCounter.LATE_ARRIVALS);
                return Delivery.LATE;
        }
    }

    /** The stream of (origin, group), created on first sight of {@code firstSeen}. */
    private StreamState stream(int origin, int group, long firstSeen) {
        long key = StreamState.key(origin, group);
        StreamState stream = streams.get(key);
        if (stream == null) {
            stream = new StreamState(origin, group, incarnations.getOrDefault(origin, 0L),
                    ReceiveWindow.baseForFirstSeen(firstSeen),
                    config.streamWindow());
            streams.put(key, stream);
        }
        return stream;
    }

    /** Registers as lost every unresolved seqno from the stream's highest known one up to {@code last}. */
    private void discoverUpTo(StreamState stream, long last, long nowNs) {
        ledger.discoverUpTo(stream.origin, stream.group, stream.window, last, nowNs);
    }

    // ---------------------------------------------------------------- PacketSource (for LEC)

    /**
     * Slots below the data cache's capacity are in the data cache; the ones above are this node's own packets in
     * the retransmit buffer (a neighbour's repair may include what this node sent).
     */
    @Override
    public int lookup(int origin, int group, long seqno, long nowNs) {
        if (origin == self) {
            int own = retransmitBuffer.find(new PacketId(origin, group, seqno));
            return own >= 0 ? dataCache.capacity() + own : UNAVAILABLE;
        }
        if (!view.isMember(group)) {
            counters.increment(EngineCounter.NON_MEMBER);
            return REJECT;
        }
        StreamState stream = stream(origin, group, seqno);
        if (stream.window.beyondWindow(seqno)) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return REJECT;
        }
        if (!stream.window.isResolved(seqno)) {
            discoverUpTo(stream, seqno, nowNs);
        }
        if (!stream.window.isResolved(seqno)) {
            return MISSING;
        }
        int slot = dataCache.find(new PacketId(origin, group, seqno));
        return slot >= 0 ? slot : UNAVAILABLE;
    }

    @Override
    public byte[] payload(int slot) {
        int own = slot - dataCache.capacity();
        return own >= 0 ? retransmitBuffer.payload(own) : dataCache.payload(slot);
    }

    @Override
    public int length(int slot) {
        int own = slot - dataCache.capacity();
        return own >= 0 ? retransmitBuffer.length(own) : dataCache.length(slot);
    }

    @Override
    public void recovered(PacketId id, byte[] payload, int offset, int length, boolean combined, long nowNs) {
        accept(id, payload, offset, length, combined ? Channel.XOR_COMBINED : Channel.XOR, nowNs);
    }

    // ---------------------------------------------------------------- NAK layer

    private void onNak(PacketRefFlyweight nak) {
        counters.increment(NakCounter.NAKS_RECEIVED);
        if (nak.origin() != self) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        int requester = nak.source();
        PacketId id = new PacketId(self, nak.group(), nak.seqno());
        int slot = retransmitBuffer.find(id);
        if (slot < 0) {
            int length = outRef.write(FrameType.GONE, self, self, id.group(), id.seqno());
            counters.increment(NakCounter.GONE_SENT);
            outbox.unicast(requester, frame, 0, length);
            return;
        }
        int length = out.write(FrameType.RETRANSMIT, self, self, id.group(), id.seqno(),
                retransmitBuffer.payload(slot), 0, retransmitBuffer.length(slot));
        counters.increment(NakCounter.RETRANSMITS_SENT);
        outbox.unicast(requester, frame, 0, length);
    }

    private void onGone(PacketRefFlyweight gone, long nowNs) {
        counters.increment(NakCounter.GONE_RECEIVED);
        PendingLoss loss = losses.resolve(new PacketId(gone.origin(), gone.group(), gone.seqno()));
        if (loss != null) {
            giveUp(loss, nowNs);
        }
    }

    private void onSession(PacketRefFlyweight session, long nowNs) {
        counters.increment(NakCounter.SESSIONS_RECEIVED);
        if (session.origin() != session.source() || session.origin() == self) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!view.isMember(session.group())) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        StreamState stream = stream(session.origin(), session.group(), session.seqno());
        if (stream.window.beyondWindow(session.seqno())) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return;
        }
        discoverUpTo(stream, session.seqno(), nowNs);
    }

    @Override
    public void announce(int group, long highestSeqno, long nowNs) {
        if (!view.isMember(group)) {
            return;
        }
        int length = outRef.write(FrameType.SESSION, self, self, group, highestSeqno);
        counters.increment(NakCounter.SESSIONS_SENT);
        outbox.multicast(group, frame, 0, length);
    }

    @Override
    public void sendNak(PendingLoss loss, long nowNs) {
        if (!nakPacer.tryAcquire(nowNs)) {
            counters.increment(NakCounter.NAKS_RATE_LIMITED);
            return;
        }
        PacketId id = loss.id();
        int length = outRef.write(FrameType.NAK, self, id.origin(), id.group(), id.seqno());
        counters.increment(NakCounter.NAKS_SENT);
        outbox.unicast(id.origin(), frame, 0, length);
    }

    @Override
    public void giveUp(PendingLoss loss, long nowNs) {
        StreamState stream = streams.get(StreamState.key(loss.id().origin(), loss.id().group()));
        if (stream != null) {
            ledger.giveUp(loss.id(), stream.window, loss.discoveredNs());
        }
    }

    // ---------------------------------------------------------------- timers

    @Override
    public void onTimer(long nowNs) {
        losses.poll(nowNs, this);
        if (sessions != null) {
            sessions.poll(nowNs, this);
        }
        lec.drainReady(nowNs);
        requestWake(nowNs);
    }

    @Override
    public long nextDeadlineNs() {
        return sessions == null ? losses.nextDeadlineNs()
                : Math.min(losses.nextDeadlineNs(), sessions.nextDeadlineNs());
    }

    private void requestWake(long nowNs) {
        long deadline = nextDeadlineNs();
        if (deadline != Long.MAX_VALUE && (deadline < requestedWakeNs || requestedWakeNs - nowNs <= 0)) {
            requestedWakeNs = deadline;
            outbox.wakeAt(deadline);
        }
    }

    // ---------------------------------------------------------------- introspection

    /** Losses waiting for recovery now. */
    public int pendingLosses() {
        return losses.size();
    }

    /** Memory held by each bounded buffer, in bytes or entries as named. */
    public Map<String, Long> bufferUsage() {
        Map<String, Long> usage = new java.util.LinkedHashMap<>();
        usage.put("dataCachePackets", (long) dataCache.size());
        usage.put("dataCacheBytes", dataCache.memoryBytes());
        usage.put("retransmitPackets", (long) retransmitBuffer.size());
        usage.put("retransmitBytes", retransmitBuffer.memoryBytes());
        usage.put("bufferedRepairs", (long) lec.bufferedRepairs());
        usage.put("repairBufferBytes", lec.memoryBytes());
        usage.put("repairBins", (long) bins.binCount());
        usage.put("repairBinBytes", bins.memoryBytes());
        usage.put("pendingLosses", (long) losses.size());
        usage.put("streams", (long) streams.size());
        return usage;
    }
}
