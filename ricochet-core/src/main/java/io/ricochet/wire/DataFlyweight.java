package io.ricochet.wire;

/**
 * A data packet ({@link FrameType#DATA}) or a retransmission of one ({@link FrameType#RETRANSMIT}).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
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
 * The packet id is (original sender, group, sequence number); sequence numbers count from 0 per (sender, group)
 * and are never negative. For DATA the original sender equals the header's source.
 */
public final class DataFlyweight extends PacketIdFlyweight {
    public static final int PAYLOAD_OFFSET = ID_END;
    /** Length of everything before the payload. */
    public static final int DATA_HEADER_LENGTH = PAYLOAD_OFFSET;
    /** Largest payload that fits one datagram. */
    public static final int MAX_PAYLOAD = MAX_FRAME_LENGTH - DATA_HEADER_LENGTH;
    /** Largest payload of a data frame of at most {@link HeaderFlyweight#STANDARD_FRAME_LENGTH} bytes. */
    public static final int STANDARD_MAX_PAYLOAD = STANDARD_FRAME_LENGTH - DATA_HEADER_LENGTH;

    /** Length of a DATA or RETRANSMIT frame carrying {@code payloadLength} bytes. */
    public static int dataFrameLength(int payloadLength) {
        return DATA_HEADER_LENGTH + payloadLength;
    }

    @Override
    public DataFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    public int payloadOffset() {
        return offset + PAYLOAD_OFFSET;
    }

    public int payloadLength() {
        return frameLength() - DATA_HEADER_LENGTH;
    }

    /**
     * Writes a complete frame: header, id and a copy of the payload. Returns the frame length.
     */
    public int write(int type, int source, int origin, int group, long seqno,
                     byte[] payload, int payloadOffset, int payloadLength) {
        writeId(type, source, origin, group, seqno);
        System.arraycopy(payload, payloadOffset, buffer, offset + PAYLOAD_OFFSET, payloadLength);
        int length = DATA_HEADER_LENGTH + payloadLength;
        frameLength(length);
        return length;
    }
}
