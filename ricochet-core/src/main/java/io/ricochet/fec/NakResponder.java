package io.ricochet.fec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.EngineCounter;
import io.ricochet.nak.NakCounter;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;

/**
 * The sender's half of the NAK layer: a bounded retransmit buffer of this node's own data packets, and the
 * answer to a NAK, a RETRANSMIT by unicast if the packet is still buffered, GONE if it is not.
 */
final class NakResponder {
    private final int self;
    private final boolean buffering;
    private final Counters counters;
    private final Outbox outbox;
    private final PacketStore retransmitBuffer;
    private final byte[] frame = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private final DataFlyweight data = new DataFlyweight().wrap(frame, 0);
    private final PacketRefFlyweight ref = new PacketRefFlyweight().wrap(frame, 0);

    NakResponder(int self, FecConfig config, Counters counters, Outbox outbox) {
        this.self = self;
        this.buffering = config.nakEnabled();
        this.counters = counters;
        this.outbox = outbox;
        this.retransmitBuffer = new PacketStore(config.retransmitCapacity(), config.maxPayload(), counters,
                EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
    }

    /** Keeps a copy of a packet this node sent (only with NAK on: nobody asks otherwise). */
    void sent(int group, long seqno, byte[] payload, int offset, int length) {
        if (buffering) {
            retransmitBuffer.put(new PacketId(self, group, seqno), payload, offset, length);
        }
    }

    /** A validated NAK from its header's source. */
    void onNak(PacketRefFlyweight nak) {
        counters.increment(NakCounter.NAKS_RECEIVED);
        if (nak.origin() != self) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        int requester = nak.source();
        int slot = retransmitBuffer.find(new PacketId(self, nak.group(), nak.seqno()));
        if (slot < 0) {
            int length = ref.write(FrameType.GONE, self, self, nak.group(), nak.seqno());
            counters.increment(NakCounter.GONE_SENT);
            outbox.unicast(requester, frame, 0, length);
            return;
        }
        int length = data.write(FrameType.RETRANSMIT, self, self, nak.group(), nak.seqno(),
                retransmitBuffer.payload(slot), 0, retransmitBuffer.length(slot));
        counters.increment(NakCounter.RETRANSMITS_SENT);
        outbox.unicast(requester, frame, 0, length);
    }

    int bufferedPackets() {
        return retransmitBuffer.size();
    }

    long memoryBytes() {
        return retransmitBuffer.memoryBytes();
    }
}
