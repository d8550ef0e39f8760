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
 * The frame length is exactly {@link #LENGTH}.
 */
public final class PacketRefFlyweight extends PacketIdFlyweight {
    public static final int LENGTH = ID_END;

    @Override
    public PacketRefFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Writes a complete NAK, GONE, SESSION or TAIL frame; returns its length. */
    public int write(int type, int source, int origin, int group, long seqno) {
        writeId(type, source, origin, group, seqno);
        frameLength(LENGTH);
        return LENGTH;
    }
}
