package io.ricochet.srm;

import io.ricochet.wire.PacketIdFlyweight;

/**
 * An SRM repair ({@link SrmFrameType#REPAIR}): a data packet multicast again to its group, by its sender or by any
 * member that holds it, in answer to a {@link SrmRequestFlyweight}. The layout is the DATA frame's with another
 * type, so the header's Source (who sent the repair) may differ from the Original Sender.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Header (12 bytes, see HeaderFlyweight; Source = repairer) |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Original Sender                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Sequence Number (64 bits)                 |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Payload (Frame Length - 28 bytes)            ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * Rules checked by {@link SrmFrameValidator}: Frame Length is at least {@link #REPAIR_HEADER_LENGTH}; the sequence
 * number is not negative. The engine also refuses a payload longer than its configured maximum.
 */
public final class SrmRepairFlyweight extends PacketIdFlyweight {
    public static final int PAYLOAD_OFFSET = ID_END;
    /** Length of everything before the payload. */
    public static final int REPAIR_HEADER_LENGTH = PAYLOAD_OFFSET;
    /** Largest payload that fits one datagram. */
    public static final int MAX_PAYLOAD = STANDARD_FRAME_LENGTH - REPAIR_HEADER_LENGTH;

    @Override
    public SrmRepairFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    public int payloadOffset() {
        return offset + PAYLOAD_OFFSET;
    }

    public int payloadLength() {
        return frameLength() - REPAIR_HEADER_LENGTH;
    }

    /** Writes a complete repair sent by {@code repairer}, copying the payload; returns the frame length. */
    public int write(int repairer, int origin, int group, long seqno, byte[] payload, int payloadOffset,
                     int payloadLength) {
        writeId(SrmFrameType.REPAIR, repairer, origin, group, seqno);
        System.arraycopy(payload, payloadOffset, buffer, offset + PAYLOAD_OFFSET, payloadLength);
        int length = REPAIR_HEADER_LENGTH + payloadLength;
        frameLength(length);
        return length;
    }
}
