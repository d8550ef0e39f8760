package io.ricochet.srm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.GroupRoster;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.StreamTable;
import io.ricochet.engine.WakeRequests;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One node's SRM engine, sans I/O: DATA multicast with per-(sender, group) seqnos, loss discovery from sequence
 * gaps and session messages, and recovery by multicast requests and repairs on random timers with suppression
 * (Floyd et al. 1997). See {@code docs/design/srm.md}. Owned by one thread; time is an argument; every random choice
 * comes from the generator it was built with.
 */
public final class SrmEngine implements ProtocolEngine, RequestTable.Handler, RepairTable.Handler,
        SessionTable.Handler {
    private final int self;
    private final SrmConfig config;
    private final Outbox outbox;
    private final Counters counters = new Counters(SrmProtocol.COUNTERS);
    private final DataSender dataSender;
    private final GroupRoster members;
    private final StreamTable streams;
    private final RequestTable requests;
    private final RepairTable repairs;
    private final SessionTable sessions;
    private final PacketStore sendBuffer;
    private final PacketStore cache;
    private final Receiver receiver;
    private final SessionWriter sessionWriter;
    private final byte[] frame = new byte[HeaderFlyweight.STANDARD_FRAME_LENGTH];
    private final SrmRequestFlyweight requestOut = new SrmRequestFlyweight().wrap(frame, 0);
    private final SrmRepairFlyweight repairOut = new SrmRepairFlyweight().wrap(frame, 0);
    private final FrameHandler frames;
    private final WakeRequests wakes;

    /**
     * @param self   this node's id
     * @param config validated settings
     * @param rng    the seeded source of every random choice this engine makes
     * @param outbox where the engine's actions go
     */
    public SrmEngine(int self, SrmConfig config, RandomGenerator rng, Outbox outbox) {
        this.self = self;
        this.config = config;
        this.outbox = outbox;
        this.dataSender = new DataSender(self, config.maxPayload(), counters, outbox);
        this.members = new GroupRoster(self);
        this.streams = new StreamTable(config.streamWindow());
        this.wakes = new WakeRequests(outbox);
        this.requests = new RequestTable(config, rng, counters);
        this.repairs = new RepairTable(config, rng, counters);
        this.sessions = new SessionTable(config, rng);
        this.sendBuffer = new PacketStore(config.sendBufferCapacity(), config.maxPayload(), counters,
                EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
        this.cache = new PacketStore(config.cacheCapacity(), config.maxPayload(), counters,
                EngineCounter.DATA_CACHE_EVICTIONS);
        this.receiver = new Receiver(streams, requests, cache, sessions, counters, outbox);
        this.sessionWriter = new SessionWriter(self, config.sessionReportsHeard(), members, streams, frame);
        this.frames = new FrameHandler(self, config.maxPayload(), members, streams, requests, repairs, receiver,
                id -> store(id).find(id) >= 0, counters);
    }

    @Override
    public int nodeId() {
        return self;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    public SrmConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- application and membership

    @Override
    public long send(int group, byte[] payload, int offset, int length, long nowNs) {
        long seqno = dataSender.send(members.isMember(group), group, payload, offset, length);
        sendBuffer.put(new PacketId(self, group, seqno), payload, offset, length);
        sessions.sent(group, seqno, nowNs);
        requestWake(nowNs);
        return seqno;
    }

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        if (event.kind() == MembershipEvent.Kind.JOIN) {
            boolean fresh = members.join(group, node);
            StreamTable.Stream replaced = node == self ? null
                    : streams.joined(node, group, event.incarnation(), fresh, members.isMember(group));
            if (replaced != null) {
                receiver.restarted(replaced);
            }
            return;
        }
        members.leave(group, node);
        if (node == self) {
            sessions.left(group);
        }
    }

    // ---------------------------------------------------------------- network input

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (!SrmFrameValidator.isValid(buffer, offset, length)) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        frames.onFrame(buffer, offset, nowNs);
        requestWake(nowNs);
    }

    // ---------------------------------------------------------------- timers

    @Override
    public void onTimer(long nowNs) {
        receiver.revealPending(nowNs);
        requests.poll(nowNs, this);
        repairs.poll(nowNs, this);
        sessions.poll(nowNs, this);
        requestWake(nowNs);
    }

    @Override
    public void sendRequest(PacketId id, long nowNs) {
        if (!members.isMember(id.group())) {
            receiver.giveUp(id, nowNs);
            return;
        }
        int length = requestOut.write(self, id.origin(), id.group(), id.seqno());
        counters.increment(SrmCounter.SRM_REQUESTS_SENT);
        outbox.multicast(id.group(), frame, 0, length);
    }

    @Override
    public void giveUp(PacketId id, long discoveredNs, long nowNs) {
        receiver.giveUp(id, discoveredNs);
    }

    @Override
    public boolean sendRepair(PacketId id, long nowNs) {
        PacketStore store = store(id);
        int slot = store.find(id);
        if (slot < 0) {
            counters.increment(SrmCounter.SRM_REPAIRS_UNAVAILABLE);
            return false;
        }
        if (!members.isMember(id.group())) {
            return false;
        }
        int length = repairOut.write(self, id.origin(), id.group(), id.seqno(), store.payload(slot),
                store.offset(slot), store.length(slot));
        counters.increment(SrmCounter.SRM_REPAIRS_SENT);
        outbox.multicast(id.group(), frame, 0, length);
        return true;
    }

    /** Where this node keeps the payload of {@code id} if it holds it. */
    private PacketStore store(PacketId id) {
        return id.origin() == self ? sendBuffer : cache;
    }

    @Override
    public void sendSession(int group, long highestSent, long nowNs) {
        if (!members.isMember(group)) {
            return;
        }
        int length = sessionWriter.write(group, highestSent);
        counters.increment(SrmCounter.SRM_SESSIONS_SENT);
        outbox.multicast(group, frame, 0, length);
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
    public long nextDeadlineNs() {
        long timers = Math.min(requests.nextDeadlineNs(),
                Math.min(repairs.nextDeadlineNs(), sessions.nextDeadlineNs()));
        return Math.min(timers, receiver.nextRevealNs());
    }

    private void requestWake(long nowNs) {
        wakes.request(nextDeadlineNs(), nowNs);
    }

    // ---------------------------------------------------------------- introspection

    /** Losses waiting for a repair now. */
    public int pendingRequests() {
        return requests.size();
    }

    /** Scheduled repairs and hold-downs now. */
    public int pendingRepairs() {
        return repairs.size();
    }

    /** True if this node has a repair of {@code (origin, group, seqno)} scheduled (not yet sent or suppressed). */
    public boolean repairScheduled(int origin, int group, long seqno) {
        return repairs.isScheduled(new PacketId(origin, group, seqno));
    }

    /** Entries in each bounded table and buffer. */
    public Map<String, Long> bufferUsage() {
        Map<String, Long> usage = new java.util.LinkedHashMap<>();
        usage.put("sendBufferPackets", (long) sendBuffer.size());
        usage.put("sendBufferBytes", sendBuffer.memoryBytes());
        usage.put("cachePackets", (long) cache.size());
        usage.put("cacheBytes", cache.memoryBytes());
        usage.put("pendingRequests", (long) requests.size());
        usage.put("pendingRepairs", (long) repairs.size());
        usage.put("streams", (long) streams.size());
        return usage;
    }
}
