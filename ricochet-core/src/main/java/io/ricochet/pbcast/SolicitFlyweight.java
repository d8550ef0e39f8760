package io.ricochet.pbcast;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.PacketIdFlyweight;

/**
 * A frame that names one data packet and carries one 32-bit argument: a solicitation
 * ({@link PbcastFrameType#REQUEST}, argument = the round number of the digest it answers), Pbcast-local's
 * {@link PbcastFrameType#INFO} (argument = the gossiper known to hold the packet) or its
 * {@link PbcastFrameType#MCAST} (argument 0). Paper, Figures 3 and 9.
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
 * |      Argument (REQUEST: round; INFO: gossiper; MCAST: 0)      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * The frame length is exactly {@link #LENGTH}; the sequence number is never negative.
 */
public final class SolicitFlyweight extends PacketIdFlyweight {
    public static final int ARGUMENT_OFFSET = ID_END;
    public static final int LENGTH = ARGUMENT_OFFSET + 4;

    @Override
    public SolicitFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    public int argument() {
        return Bytes.getInt(buffer, offset + ARGUMENT_OFFSET);
    }

    /** Writes a complete REQUEST, INFO or MCAST frame; returns its length. */
    public int write(int type, int source, int origin, int group, long seqno, int argument) {
        writeId(type, source, origin, group, seqno);
        Bytes.putInt(buffer, offset + ARGUMENT_OFFSET, argument);
        frameLength(LENGTH);
        return LENGTH;
    }
}
