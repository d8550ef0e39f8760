package io.ricochet.wire;

/**
 * A frame that names one data packet: a {@link FrameType#NAK} (sent to the packet's original sender), a
 * {@link FrameType#GONE} (the sender's answer when the packet has left its retransmit buffer) or a
 * {@link FrameType#SESSION} (a sender's highest seqno in a group, multicast once the stream goes idle) and
 * {@link FrameType#TAIL} (a member's highest seqno seen of a failed sender).
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
 * </pre>
 *
 * A GONE, SESSION or TAIL frame is exactly {@link #LENGTH} bytes. A NAK is {@link #NAK_LENGTH}: the same fields and
 * zero padding, so that its answer (a RETRANSMIT of at most {@link HeaderFlyweight#MAX_FRAME_LENGTH} bytes) is never
 * more than three times the bytes of the NAK that asked for it (the anti-amplification rule of QUIC, RFC 9000
 * section 8.1, applied to NAKs: docs/design/security.md, "Amplification"). The padding is not read.
 */
public final class PacketRefFlyweight extends PacketIdFlyweight {
    /** Length of a GONE, SESSION or TAIL frame. */
    public static final int LENGTH = ID_END;
    /** Length of a NAK frame: at least a third of the largest frame, so no answer is more than 3 times its NAK. */
    public static final int NAK_LENGTH = 496;
    /** The longest frame of this layout: a buffer of this many bytes holds any of them. */
    public static final int MAX_LENGTH = NAK_LENGTH;

    @Override
    public PacketRefFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** The length of a frame of {@code type}: {@link #NAK_LENGTH} for a NAK, {@link #LENGTH} for the others. */
    public static int lengthOf(int type) {
        return type == FrameType.NAK ? NAK_LENGTH : LENGTH;
    }

    /** Writes a complete NAK (with its zero padding), GONE, SESSION or TAIL frame; returns its length. */
    public int write(int type, int source, int origin, int group, long seqno) {
        writeId(type, source, origin, group, seqno);
        int length = lengthOf(type);
        java.util.Arrays.fill(buffer, offset + LENGTH, offset + length, (byte) 0);
        frameLength(length);
        return length;
    }
}
