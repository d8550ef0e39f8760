package io.ricochet.bench.load;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.HashMap;
import java.util.Map;

/**
 * A sender's side of the NAK layer, without the socket: turns a NAK for one of this node's packets into the
 * RETRANSMIT that answers it, from the {@link RetransmitRing}, or into GONE when the packet has left the ring, so
 * a receiver never waits on a loss. Anything else (a malformed frame, a NAK for another origin or for a group
 * this node does not send to) gets no answer and is counted. Allocates nothing per frame. Not thread-safe.
 *
 * <p>Not the engine's {@code nak.NakResponder}: that one keeps payloads for the NAK give-up time, paces the sender
 * on stability and limits each requester's answers; a load generator answers every NAK at once from the frames it
 * built, and both write their answers with the same flyweights ({@code PacketRefFlyweight}, {@code DataFlyweight}).
 */
public final class NakAnswerer {
    private final int self;
    private final RetransmitRing ring;
    private final Map<Integer, Integer> groupIndex = new HashMap<>();
    private final PacketRefFlyweight nak = new PacketRefFlyweight();
    private final PacketRefFlyweight gone = new PacketRefFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final DataFlyweight retransmit = new DataFlyweight();
    private long retransmits;
    private long gones;
    private long refused;

    /**
     * @param self   this node's id (the origin of every packet it sent)
     * @param groups this node's groups; index {@code i} is ring group {@code i}
     * @param ring   what this node sent
     */
    public NakAnswerer(int self, int[] groups, RetransmitRing ring) {
        this.self = self;
        this.ring = ring;
        for (int i = 0; i < groups.length; i++) {
            groupIndex.put(groups[i], i);
        }
    }

    /**
     * Writes the answer to {@code frame} (a whole datagram of {@code length} bytes) into {@code out} at 0.
     *
     * @param out at least {@link HeaderFlyweight#MAX_FRAME_LENGTH} bytes
     * @return the answer's length, or 0 for no answer
     */
    public int answer(byte[] frame, int length, byte[] out) {
        if (!FrameValidator.isValid(frame, 0, length) || frame[HeaderFlyweight.TYPE_OFFSET] != FrameType.NAK) {
            refused++;
            return 0;
        }
        nak.wrap(frame, 0);
        Integer index = groupIndex.get(nak.group());
        if (nak.origin() != self || index == null) {
            refused++;
            return 0;
        }
        int slot = ring.find(index, nak.seqno());
        if (slot < 0) {
            gones++;
            return gone.wrap(out, 0).write(FrameType.GONE, self, self, nak.group(), nak.seqno());
        }
        data.wrap(ring.frame(slot), 0);
        retransmits++;
        return retransmit.wrap(out, 0).write(FrameType.RETRANSMIT, self, self, nak.group(), nak.seqno(),
                data.buffer(), data.payloadOffset(), data.payloadLength());
    }

    /** NAKs answered with RETRANSMIT. */
    public long retransmits() {
        return retransmits;
    }

    /** NAKs answered with GONE. */
    public long gones() {
        return gones;
    }

    /** Frames given to {@link #answer} that got no answer (not a valid NAK for this node). */
    public long refused() {
        return refused;
    }
}
