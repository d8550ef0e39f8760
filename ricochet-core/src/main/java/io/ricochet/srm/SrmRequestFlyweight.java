package io.ricochet.srm;

import io.ricochet.wire.PacketIdFlyweight;

/**
 * An SRM repair request ({@link SrmFrameType#REQUEST}), multicast to the packet's group: "I am missing this
 * packet". Every member holding the packet may answer with a {@link SrmRepairFlyweight}; every member missing it
 * backs off its own request.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Header (12 bytes, see HeaderFlyweight; Source = requester)|
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
 * Rules checked by {@link SrmFrameValidator}: Frame Length is exactly {@link #LENGTH}; the sequence number is not
 * negative.
 */
public final class SrmRequestFlyweight extends PacketIdFlyweight {
    public static final int LENGTH = ID_END;

    @Override
    public SrmRequestFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Writes a complete request from {@code requester}; returns its length. */
    public int write(int requester, int origin, int group, long seqno) {
        writeId(SrmFrameType.REQUEST, requester, origin, group, seqno);
        frameLength(LENGTH);
        return LENGTH;
    }
}
