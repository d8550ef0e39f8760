package io.ricochet.qsm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;

/**
 * Sends a packet this member holds to a member that misses it (QSM_REPAIR, unicast): from the send buffer if this
 * member sent it, else from the cache of packets it delivered. Every ring level answers records through it.
 */
final class Forwarder {
    private final int self;
    private final Receiver receiver;
    private final PacketStore cache;
    private final SendBuffer sendBuffer;
    private final Counters counters;
    private final Outbox outbox;
    private final byte[] frame;
    private final DataFlyweight forward = new DataFlyweight();

    Forwarder(int self, int maxPayload, Receiver receiver, PacketStore cache, SendBuffer sendBuffer,
              Counters counters, Outbox outbox) {
        this.self = self;
        this.receiver = receiver;
        this.cache = cache;
        this.sendBuffer = sendBuffer;
        this.counters = counters;
        this.outbox = outbox;
        this.frame = new byte[DataFlyweight.dataFrameLength(maxPayload)];
        forward.wrap(frame, 0);
    }

    /** Sends {@code id} to {@code to} by unicast if this member holds it; returns whether it did. */
    boolean forward(PacketId id, int to) {
        byte[] payload;
        int length;
        if (id.origin() == self) {
            payload = sendBuffer.find(id.group(), id.seqno());
            length = payload == null ? 0 : payload.length;
        } else {
            int slot = receiver.delivered(id) ? cache.find(id) : -1;
            payload = slot < 0 ? null : cache.payload(slot);
            length = slot < 0 ? 0 : cache.length(slot);
        }
        if (payload == null) {
            return false;
        }
        int frameLength = forward.write(FrameType.QSM_REPAIR, self, id.origin(), id.group(), id.seqno(), payload, 0,
                length);
        counters.increment(QsmCounter.QSM_REPAIRS_SENT);
        if (id.origin() == self) {
            counters.increment(QsmCounter.QSM_REPAIRS_FROM_ORIGIN);
        }
        outbox.unicast(to, frame, 0, frameLength);
        return true;
    }
}
