package io.ricochet.ipmc;

import io.ricochet.engine.Admission;
import io.ricochet.engine.Counters;
import io.ricochet.engine.DataSender;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.GroupRoster;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.StreamTable;
import io.ricochet.engine.WakeRequests;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Map;

/**
 * Plain IP multicast for one node, sans I/O: {@link #send} multicasts the shared DATA frame once; a DATA frame that
 * arrives is delivered at once if its seqno is new to its stream, else dropped as a duplicate. No frame but DATA is
 * ever sent or accepted, no loss is looked for, nothing is retransmitted or reported lost. See
 * {@code docs/design/ipmc.md}.
 *
 * <p>Streams follow the shared rules of {@link StreamTable} (a sender the GMS does not list gets no state; a
 * departed sender's stream is pruned after {@link #RETIRE_AFTER_NS}). Each stream remembers which of its last
 * {@link #STREAM_WINDOW} seqnos were delivered, so a copy that arrives later than that behind the newest packet is
 * dropped like a duplicate.
 */
public final class IpmcEngine implements ProtocolEngine {
    /** Seqnos a stream's duplicate filter spans (a bit each). */
    public static final int STREAM_WINDOW = 4096;
    /** How long a departed sender's stream is kept: a copy still in flight is then recognised. */
    public static final long RETIRE_AFTER_NS = 5_000_000_000L;

    private final int self;
    private final int maxPayload;
    private final Outbox outbox;
    private final Counters counters = new Counters(IpmcProtocol.COUNTERS);
    private final DataSender dataSender;
    private final GroupRoster members;
    private final StreamTable streams = new StreamTable(STREAM_WINDOW);
    private final StreamTable.Roster roster;
    private final WakeRequests wakes;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();

    /**
     * @param self       this node's id
     * @param maxPayload largest payload of a DATA frame
     * @param outbox     where the engine's actions go
     */
    public IpmcEngine(int self, int maxPayload, Outbox outbox) {
        this.self = self;
        this.members = new GroupRoster(self);
        this.roster = members::isListed;
        this.maxPayload = maxPayload;
        this.outbox = outbox;
        this.dataSender = new DataSender(self, maxPayload, counters, outbox);
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

    @Override
    public long send(int group, byte[] payload, int offset, int length, long nowNs) {
        return dataSender.send(members.isMember(group), group, payload, offset, length);
    }

    @Override
    public StreamTable streams() {
        return streams;
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

    @Override
    public void onMembership(MembershipEvent event, long nowNs) {
        int group = event.group();
        int node = event.node();
        boolean join = event.kind() == MembershipEvent.Kind.JOIN;
        if (node == self) {
            if (join) {
                members.join(group, self);
            } else {
                members.leave(group, self);
                streams.retireGroup(group, nowNs + RETIRE_AFTER_NS);
            }
        } else if (join) {
            boolean fresh = members.join(group, node);
            // A restarted sender's old stream is simply replaced: there is no other state to drop.
            streams.joined(node, group, event.incarnation(), fresh, members.isMember(group));
        } else {
            streams.retire(node, group, nowNs + RETIRE_AFTER_NS);
            members.leave(group, node);
        }
        wakes.request(nextDeadlineNs(), nowNs);
    }

    @Override
    public void onPacket(byte[] buffer, int offset, int length, long nowNs) {
        if (!FrameValidator.isValid(buffer, offset, length)
                || header.wrap(buffer, offset).type() != FrameType.DATA) {
            counters.increment(EngineCounter.INVALID_PACKETS); // malformed, or another protocol's frame
            return;
        }
        DataFlyweight packet = data.wrap(buffer, offset);
        if (!Admission.acceptable(packet, false, members.isMember(packet.group()), maxPayload, counters)) {
            return;
        }
        if (packet.origin() == self) {
            counters.increment(EngineCounter.DUPLICATES); // our own packet looped back
            return;
        }
        StreamTable.Stream stream = streams.getOrCreateListed(packet.origin(), packet.group(), packet.seqno(),
                roster, counters);
        if (stream != null) {
            admit(stream.window(), packet);
        }
    }

    /** Delivers the packet if its seqno is new to the stream, sliding or restarting the window as needed. */
    private void admit(ReceiveWindow window, DataFlyweight packet) {
        long seqno = packet.seqno();
        if (window.isResolved(seqno)) {
            counters.increment(EngineCounter.DUPLICATES); // delivered, or too far behind the newest to tell
            return;
        }
        if (window.isJump(seqno)) {
            window.restartAt(seqno);
            counters.increment(EngineCounter.STREAM_RESTARTS);
        } else if (window.beyondWindow(seqno)) {
            counters.increment(EngineCounter.WINDOW_SLIDES);
        }
        window.resolve(seqno);
        counters.increment(EngineCounter.DATA_RECEIVED);
        counters.increment(EngineCounter.DELIVERED);
        outbox.deliver(packet.origin(), packet.group(), seqno, packet.buffer(), packet.payloadOffset(),
                packet.payloadLength(), Delivery.DIRECT);
    }

    @Override
    public void onTimer(long nowNs) {
        streams.pruneDue(nowNs, (origin, group) -> counters.increment(EngineCounter.STREAMS_PRUNED));
        wakes.request(nextDeadlineNs(), nowNs);
    }

    @Override
    public long nextDeadlineNs() {
        return streams.nextPruneNs();
    }

    @Override
    public Map<String, Long> bufferUsage() {
        return Map.of("streams", (long) streams.size());
    }
}
