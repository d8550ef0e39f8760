package io.ricochet.loss;

import io.ricochet.engine.PacketId;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;

/**
 * Loss injected at one receiver's edge, the same way in both drivers (the simulator and the daemon), before the
 * engine sees a frame: the model applies to data frames from other nodes, or to frames of every type with
 * {@link LossScope#ALL}, and is consulted exactly once per such frame, in arrival order. A node's own multicasts
 * come back to it on the loopback and the engine discards them; dropping them would count losses that are none.
 */
public final class LossInjector {
    private final LossModel model;
    private final LossScope scope;
    private final int self;
    private final DataFlyweight data = new DataFlyweight();

    /**
     * @param model the receiver's loss model
     * @param scope which frame types it applies to
     * @param self  the receiving node's id
     */
    public LossInjector(LossModel model, LossScope scope, int self) {
        this.model = model;
        this.scope = scope;
        this.self = self;
    }

    /** Whether loss applies to a frame of {@code type} sent by {@code source} arriving at {@code self}. */
    public static boolean applies(int type, int source, int self, LossScope scope) {
        return source != self && (type == FrameType.DATA || scope == LossScope.ALL);
    }

    /**
     * Whether the frame, at least {@link HeaderFlyweight#HEADER_LENGTH} bytes, is lost. A lost data frame's id is
     * then {@link #droppedData}.
     */
    public boolean drop(byte[] frame, int offset) {
        return drop(frame, offset, 0);
    }

    /** As {@link #drop(byte[], int)}, for a frame arriving at {@code nowNs} (a model changing over time needs it). */
    public boolean drop(byte[] frame, int offset, long nowNs) {
        int type = frame[offset + HeaderFlyweight.TYPE_OFFSET];
        int source = Bytes.getInt(frame, offset + HeaderFlyweight.SOURCE_OFFSET);
        return applies(type, source, self, scope) && model.shouldDrop(nowNs);
    }

    /** The id of a dropped frame if it is a data frame long enough to carry one, else null. */
    public PacketId droppedData(byte[] frame, int offset, int length) {
        if (frame[offset + HeaderFlyweight.TYPE_OFFSET] != FrameType.DATA
                || length < DataFlyweight.DATA_HEADER_LENGTH) {
            return null;
        }
        data.wrap(frame, offset);
        return new PacketId(data.origin(), data.group(), data.seqno());
    }
}
