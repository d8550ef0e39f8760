package io.ricochet.fec;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.GroupRoster;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.StreamTable;
import io.ricochet.engine.WakeRequests;
import io.ricochet.nak.FailedSenderTails;
import io.ricochet.nak.NakRequester;
import io.ricochet.nak.NakResponder;
import io.ricochet.nak.NakSettings;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sender-based FEC (Ricochet paper, section 3.1) as a sans-I/O engine: for every r data packets a sender
 * multicasts to a group it multicasts c repair packets covering them, a Reed-Solomon code over GF(2^8) (plain XOR
 * parity for c = 1); a receiver holding any r of a block's r + c packets rebuilds the rest. An optional NAK layer
 * behind it (Ricochet's) makes delivery complete. See {@code docs/design/fec.md}.
 *
 * <p>The engine makes no random choice: a sender's repairs go to its whole group. Delivery is exactly once and
 * unordered, through one path ({@link #accept}) whichever way a packet came.
 */
public final class FecEngine implements ProtocolEngine {
    /** How a payload reached {@link #accept}. */
    private enum Channel { DATA, RETRANSMIT, FEC }

    private final int self;
    private final FecConfig config;
    private final Counters counters = new Counters(FecProtocol.COUNTERS);
    private final DataSender dataSender;
    private final GroupRoster members;
    private final StreamTable streams;
    private final PacketStore dataCache;
    private final NakRequester losses;
    private final FailedSenderTails tails;
    private final long retireAfterNs;
    /** The member lists as {@link StreamTable} asks them, made once (not a new method reference per packet). */
    private final StreamTable.Roster roster;
    private final BlockSender sender;
    private final NakResponder responder;
    private final WakeRequests wakes;
    private final RepairReceiver repairs;
    private final Admission<Channel> admission;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final PacketRefFlyweight ref = new PacketRefFlyweight();
    private final FecRepairFlyweight repair = new FecRepairFlyweight();

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param outbox where the engine's actions go
     */
    public FecEngine(int self, FecConfig config, Outbox outbox) {
        this.self = self;
        this.members = new GroupRoster(self);
        this.roster = members::isListed;
        this.config = config;
        this.dataSender = new DataSender(self, config.maxPayload(), counters, outbox);
        this.streams = new StreamTable(config.streamWindow());
        this.dataCache = new PacketStore(config.dataCacheCapacity(), config.maxPayload(), counters,
                EngineCounter.DATA_CACHE_EVICTIONS);
        this.losses = new NakRequester(self, config.nakSettings(), counters, outbox, streams,
                config.maxPayload());
        this.tails = new FailedSenderTails(self, counters, outbox, streams, losses);
        this.retireAfterNs = config.nakSettings().departedStreamNs();
        this.sender = new BlockSender(self, config, counters, outbox);
        NakSettings nak = config.nakSettings();
        this.responder = new NakResponder(self, config.retransmitCapacity(), nak.giveUpAfterNs(), nak.rateLimit(),
                config.maxPayload(), nak.nakEnabled(), dataSender::sentTo, counters, outbox);
        this.wakes = new WakeRequests(outbox);
        this.repairs = new RepairReceiver(config, counters, dataCache,
                (id, payload, length, nowNs) -> accept(id, payload, 0, length, Channel.FEC, nowNs));
        this.admission = new Admission<>(dataCache, outbox, losses, this::account, counters);
    }

    @Override
    public int nodeId() {
        return self;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    public FecConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- application

    @Override
    public long send(int group, byte[] payload, int offset, int length, long nowNs) {
        long seqno = dataSender.send(members.isMember(group), group, payload, offset, length);
        responder.sent(group, seqno, payload, offset, length, nowNs);
        sender.sent(group, seqno, payload, offset, length, nowNs);
        requestWake(nowNs);
        return seqno;
    }

    // ---------------------------------------------------------------- membership

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        boolean join = event.kind() == MembershipEvent.Kind.JOIN;
        if (node == self) {
            // Our seqnos continue if we leave and come back: this process is one incarnation.
            if (join) {
                members.join(group, self);
            } else {
                members.leave(group, self);
                sender.left(group);
                streams.retireGroup(group, nowNs + retireAfterNs);
            }
        } else if (join) {
            boolean fresh = members.join(group, node);
            if (streams.joined(node, group, event.incarnation(), fresh, members.isMember(group)) != null) {
                repairs.dropStream(node, group);
            }
        } else {
            if (event.kind() == MembershipEvent.Kind.FAIL) {
                tails.senderFailed(group, node, members.isMember(group));
            }
            streams.retire(node, group, nowNs + retireAfterNs);
            members.leave(group, node);
        }
    }

    // ---------------------------------------------------------------- network input

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (FrameValidator.checkHeader(buffer, offset, length) != FrameValidator.Verdict.OK) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        int type = header.wrap(buffer, offset).type();
        boolean valid = FecFrameValidator.isFecType(type)
                ? FecFrameValidator.check(buffer, offset, length) == FrameValidator.Verdict.OK
                : FrameValidator.isValid(buffer, offset, length);
        if (!valid) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        switch (type) {
            case FecRepairFlyweight.TYPE:
                onRepair(repair.wrap(buffer, offset), nowNs);
                break;
            case FrameType.DATA:
                onData(data.wrap(buffer, offset), Channel.DATA, nowNs);
                break;
            case FrameType.RETRANSMIT:
                onData(data.wrap(buffer, offset), Channel.RETRANSMIT, nowNs);
                break;
            case FrameType.NAK:
                PacketRefFlyweight nak = ref.wrap(buffer, offset);
                if (members.isListed(nak.group(), nak.source())) {
                    responder.onNak(nak, nowNs);
                } else {
                    counters.increment(EngineCounter.NON_MEMBER); // Only a member of the group may ask.
                }
                break;
            case FrameType.GONE:
                losses.onGone(ref.wrap(buffer, offset), nowNs);
                break;
            case FrameType.TAIL:
                PacketRefFlyweight tail = ref.wrap(buffer, offset);
                tails.onTail(tail, members.isMember(tail.group()), nowNs);
                break;
            default:
                counters.increment(EngineCounter.INVALID_PACKETS); // Another protocol's frame.
                break;
        }
        requestWake(nowNs);
    }

    private void onData(DataFlyweight packet, Channel channel, long nowNs) {
        if (!Admission.acceptable(packet, channel == Channel.RETRANSMIT, members.isMember(packet.group()),
                config.maxPayload(), counters)) {
            return;
        }
        accept(new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                packet.payloadOffset(), packet.payloadLength(), channel, nowNs);
    }

    /** A repair: discovers the block's missing packets, then hands it to the decoder if any is unresolved. */
    private void onRepair(FecRepairFlyweight incoming, long nowNs) {
        int origin = incoming.source();
        if (origin == self) {
            return; // Our own repair looped back.
        }
        counters.increment(FecCounter.FEC_REPAIRS_RECEIVED);
        if (incoming.codedLength() > config.maxPayload()) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!members.isMember(incoming.group())) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        long start = incoming.blockStart();
        long last = start + incoming.r() - 1;
        StreamTable.Stream stream = stream(origin, incoming.group(), start);
        if (stream == null) {
            return;
        }
        if (stream.window().isJump(last)) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return;
        }
        losses.discoverUpTo(origin, incoming.group(), stream.window(), last, nowNs);
        if (allResolved(stream.window(), origin, incoming.group(), start, last)) {
            counters.increment(EngineCounter.REPAIRS_USELESS);
            return;
        }
        repairs.onRepair(incoming, nowNs);
    }

    private boolean allResolved(ReceiveWindow window, int origin, int group, long first, long last) {
        for (long seqno = first; seqno <= last; seqno++) {
            if (admission.isNew(window, new PacketId(origin, group, seqno))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The one path by which a packet becomes delivered, whatever brought it: the {@link Admission} (dedupe, gap
     * discovery, cache, accounting, delivery), then a decoding attempt for the block waiting on it.
     */
    private void accept(PacketId id, byte[] payload, int offset, int length, Channel channel, long nowNs) {
        if (id.origin() == self) {
            counters.increment(EngineCounter.DUPLICATES); // Our own packet coming back.
            return;
        }
        StreamTable.Stream stream = stream(id.origin(), id.group(), id.seqno());
        if (stream == null) {
            return;
        }
        ReceiveWindow window = stream.window();
        Admission.Outcome outcome = admission.admit(window, id, payload, offset, length, channel, nowNs);
        if (!outcome.delivered()) {
            return;
        }
        repairs.onAvailable(id.origin(), id.group(), id.seqno(), nowNs);
    }

    /** The stream of (origin, group), created only for a sender the GMS lists in the group; null (counted) if none. */
    private StreamTable.Stream stream(int origin, int group, long seqno) {
        return streams.getOrCreateListed(origin, group, seqno, roster, counters);
    }

    /** A new packet is being delivered: counts it and what it recovered. */
    private Delivery account(PacketId id, Channel channel, long nowNs) {
        if (channel == Channel.DATA) {
            counters.increment(EngineCounter.DATA_RECEIVED);
        }
        counters.increment(EngineCounter.DELIVERED);
        if (!losses.resolve(id)) {
            return Delivery.DIRECT;
        }
        switch (channel) {
            case FEC:
                counters.increment(FecCounter.FEC_RECOVERED);
                return Delivery.LEC;
            case RETRANSMIT:
                counters.increment(EngineCounter.RECOVERED_BY_NAK);
                return Delivery.NAK;
            default:
                counters.increment(EngineCounter.LATE_ARRIVALS);
                return Delivery.LATE;
        }
    }

    // ---------------------------------------------------------------- timers

    @Override
    public void onTimer(long nowNs) {
        sender.poll(nowNs);
        losses.poll(nowNs);
        streams.pruneDue(nowNs, (origin, group) -> {
            counters.increment(EngineCounter.STREAMS_PRUNED);
            losses.forgetStream(origin, group);
            repairs.dropStream(origin, group);
        });
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
    public long nextDeadlineNs() {
        return Math.min(Math.min(sender.nextDeadlineNs(), losses.nextDeadlineNs()), streams.nextPruneNs());
    }

    private void requestWake(long nowNs) {
        wakes.request(nextDeadlineNs(), nowNs);
    }

    // ---------------------------------------------------------------- introspection

    /** Losses waiting for recovery now. */
    public int pendingLosses() {
        return losses.pending();
    }

    /** Blocks whose repairs are held waiting for more packets. */
    public int pendingBlocks() {
        return repairs.pendingBlocks();
    }

    /** Memory held by each bounded buffer, in bytes or entries as named. */
    public Map<String, Long> bufferUsage() {
        Map<String, Long> usage = new LinkedHashMap<>();
        usage.put("dataCachePackets", (long) dataCache.size());
        usage.put("dataCacheBytes", dataCache.memoryBytes());
        usage.put("retransmitPackets", (long) responder.bufferedPackets());
        usage.put("retransmitBytes", responder.memoryBytes());
        usage.put("pendingBlocks", (long) repairs.pendingBlocks());
        usage.put("pendingBlockBytes", repairs.memoryBytes());
        usage.put("openBlocks", (long) sender.blockCount());
        usage.put("pendingLosses", (long) losses.pending());
        usage.put("streams", (long) streams.size());
        return usage;
    }
}
