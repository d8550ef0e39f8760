package io.ricochet.srm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.GroupRoster;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;

/**
 * What an SRM node does with each frame that passed {@link SrmFrameValidator}: the semantic checks (membership,
 * origin, payload bound) and then the protocol step for its type. DATA and REPAIR go to {@link Receiver#accept};
 * a REQUEST is answered (a repair timer) if this node holds the packet and otherwise backs off this node's own
 * request; a SESSION reveals the losses it implies. A frame this node sent itself, looped back, is a duplicate.
 */
final class FrameHandler {
    /** Whether this node holds a packet's payload: its own in the send buffer, or another's in its cache. */
    interface Holder {
        boolean holds(PacketId id);
    }

    private final int self;
    private final int maxPayload;
    private final GroupRoster members;
    private final StreamTable streams;
    private final RequestTable requests;
    private final RepairTable repairs;
    private final Receiver receiver;
    private final Holder holder;
    private final Counters counters;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final SrmRequestFlyweight request = new SrmRequestFlyweight();
    private final SrmRepairFlyweight repair = new SrmRepairFlyweight();
    private final SrmSessionFlyweight session = new SrmSessionFlyweight();

    FrameHandler(int self, int maxPayload, GroupRoster members, StreamTable streams, RequestTable requests,
                 RepairTable repairs, Receiver receiver, Holder holder, Counters counters) {
        this.self = self;
        this.maxPayload = maxPayload;
        this.members = members;
        this.streams = streams;
        this.requests = requests;
        this.repairs = repairs;
        this.receiver = receiver;
        this.holder = holder;
        this.counters = counters;
    }

    /** Handles one frame the validator accepted. */
    void onFrame(byte[] buffer, int offset, long nowNs) {
        header.wrap(buffer, offset);
        if (header.source() == self) {
            counters.increment(EngineCounter.DUPLICATES);
            return;
        }
        switch (header.type()) {
            case FrameType.DATA:
                onData(data.wrap(buffer, offset), nowNs);
                break;
            case SrmFrameType.REQUEST:
                onRequest(request.wrap(buffer, offset), nowNs);
                break;
            case SrmFrameType.REPAIR:
                onRepair(repair.wrap(buffer, offset), nowNs);
                break;
            case SrmFrameType.SESSION:
                onSession(session.wrap(buffer, offset), nowNs);
                break;
            default:
                counters.increment(EngineCounter.INVALID_PACKETS);
                break;
        }
    }

    private void onData(DataFlyweight packet, long nowNs) {
        if (packet.origin() != packet.source() || packet.payloadLength() > maxPayload) {
            counters.increment(EngineCounter.INVALID_PACKETS);
        } else if (!members.isMember(packet.group())) {
            counters.increment(EngineCounter.NON_MEMBER);
        } else {
            receiver.accept(new PacketId(packet.origin(), packet.group(), packet.seqno()), packet.buffer(),
                    packet.payloadOffset(), packet.payloadLength(), Receiver.Via.DATA, nowNs);
        }
    }

    private void onRepair(SrmRepairFlyweight packet, long nowNs) {
        counters.increment(SrmCounter.SRM_REPAIRS_RECEIVED);
        if (packet.payloadLength() > maxPayload) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!members.isMember(packet.group())) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        PacketId id = new PacketId(packet.origin(), packet.group(), packet.seqno());
        repairs.onRepairHeard(id, nowNs);
        if (id.origin() == self) {
            counters.increment(EngineCounter.DUPLICATES);
            return;
        }
        receiver.accept(id, packet.buffer(), packet.payloadOffset(), packet.payloadLength(), Receiver.Via.REPAIR,
                nowNs);
    }

    private void onRequest(SrmRequestFlyweight frame, long nowNs) {
        counters.increment(SrmCounter.SRM_REQUESTS_RECEIVED);
        if (!members.isMember(frame.group())) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        PacketId id = new PacketId(frame.origin(), frame.group(), frame.seqno());
        StreamTable.Stream stream = id.origin() == self ? null : streams.find(id.origin(), id.group());
        boolean missing = stream != null && receiver.isNew(stream, id);
        if (!missing) {
            // Resolved here (or our own): answer if we still hold it. The window is asked first so a restarted
            // sender's new packets are never answered with a cached payload of its previous incarnation.
            if ((id.origin() == self || stream != null) && holder.holds(id)) {
                repairs.onRequest(id, nowNs);
            } else {
                counters.increment(SrmCounter.SRM_REPAIRS_UNAVAILABLE);
            }
            return;
        }
        long before = counters.get(EngineCounter.LOSSES_DETECTED);
        if (reveal(stream, id.seqno(), nowNs)) {
            requests.onRequestHeard(id, nowNs);
        }
        counters.add(SrmCounter.SRM_LOSSES_FROM_REQUESTS, counters.get(EngineCounter.LOSSES_DETECTED) - before);
    }

    private void onSession(SrmSessionFlyweight frame, long nowNs) {
        counters.increment(SrmCounter.SRM_SESSIONS_RECEIVED);
        int group = frame.group();
        if (!members.isMember(group)) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        long before = counters.get(EngineCounter.LOSSES_DETECTED);
        if (frame.highestSent() >= 0) {
            reveal(streams.find(frame.source(), group), frame.highestSent(), nowNs);
        }
        for (int i = 0, count = frame.count(); i < count; i++) {
            int sender = frame.entrySender(i);
            if (sender != self && members.isListed(group, sender)) {
                reveal(streams.find(sender, group), frame.entrySeqno(i), nowNs);
            }
        }
        counters.add(SrmCounter.SRM_LOSSES_FROM_SESSIONS, counters.get(EngineCounter.LOSSES_DETECTED) - before);
    }

    /** {@code seqno} exists in {@code stream} (if this node tracks it): discover what is missing up to it. */
    private boolean reveal(StreamTable.Stream stream, long seqno, long nowNs) {
        if (stream == null) {
            return false;
        }
        if (stream.window().isJump(seqno)) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return false;
        }
        receiver.discoverUpTo(stream, seqno, nowNs);
        return true;
    }
}
