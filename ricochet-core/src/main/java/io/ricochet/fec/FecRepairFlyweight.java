package io.ricochet.fec;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;

/**
 * A sender-based FEC repair ({@link #TYPE}, the first id of the range reserved for FEC): repair {@code index} of
 * the {@code c} a sender multicasts for a block of its data packets in a group, the block being the {@code r}
 * consecutive seqnos from {@code blockStart}. The original sender is the header's source.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                Block Start Sequence Number (64 bits)          |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |       R       |       C       | Repair Index  |  Reserved (0) |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Coded Payload Length     |        Data Length 0          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Data Length 1          |   ... R data lengths ...     ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Coded Payload (Coded Payload Length bytes)          ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * R is the number of data packets in the block: the sender's rate-of-fire r, or fewer for a block flushed by its
 * timeout. C is the number of repairs sent for the block and 0 &lt;= Repair Index &lt; C. The coded payload is
 * {@code sum_j ReedSolomon.coefficient(index, j) * data_j} over GF(2^8), each payload zero-padded to the longest;
 * its length is the largest data length. Frame Length = {@value #LENGTHS_OFFSET} + 2 R + Coded Payload Length.
 * {@link FecFrameValidator} checks all of it. A block of r = 8 packets of 1024 bytes gives a 1070-byte frame.
 */
public final class FecRepairFlyweight extends HeaderFlyweight {
    /** Frame type id: the first of the ids reserved for FEC. */
    public static final int TYPE = FrameType.FEC_FIRST;
    /** Largest R on the wire. */
    public static final int MAX_R = 64;
    /** Largest C on the wire. */
    public static final int MAX_C = 32;

    public static final int GROUP_OFFSET = HEADER_LENGTH;
    public static final int BLOCK_START_OFFSET = GROUP_OFFSET + 4;
    public static final int R_OFFSET = BLOCK_START_OFFSET + 8;
    public static final int C_OFFSET = R_OFFSET + 1;
    public static final int INDEX_OFFSET = C_OFFSET + 1;
    public static final int RESERVED_OFFSET = INDEX_OFFSET + 1;
    public static final int CODED_LENGTH_OFFSET = RESERVED_OFFSET + 1;
    public static final int LENGTHS_OFFSET = CODED_LENGTH_OFFSET + 2;

    @Override
    public FecRepairFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Frame length of a repair over {@code r} packets with a coded payload of {@code codedLength} bytes. */
    public static int frameLength(int r, int codedLength) {
        return LENGTHS_OFFSET + 2 * r + codedLength;
    }

    public int group() {
        return Bytes.getInt(buffer, offset + GROUP_OFFSET);
    }

    public long blockStart() {
        return Bytes.getLong(buffer, offset + BLOCK_START_OFFSET);
    }

    public int r() {
        return Bytes.getUnsignedByte(buffer, offset + R_OFFSET);
    }

    public int c() {
        return Bytes.getUnsignedByte(buffer, offset + C_OFFSET);
    }

    public int index() {
        return Bytes.getUnsignedByte(buffer, offset + INDEX_OFFSET);
    }

    public int reserved() {
        return Bytes.getUnsignedByte(buffer, offset + RESERVED_OFFSET);
    }

    public int codedLength() {
        return Bytes.getUnsignedShort(buffer, offset + CODED_LENGTH_OFFSET);
    }

    /** Length of data packet {@code j} (0 &lt;= j &lt; R) of the block. */
    public int dataLength(int j) {
        return Bytes.getUnsignedShort(buffer, offset + LENGTHS_OFFSET + 2 * j);
    }

    public int payloadOffset() {
        return offset + LENGTHS_OFFSET + 2 * r();
    }

    /**
     * Writes the header and the fixed fields, and sets the frame length; the data lengths and the coded payload
     * follow with {@link #dataLength(int, int)} and a copy to {@link #payloadOffset()}.
     */
    public FecRepairFlyweight writeStart(int source, int group, long blockStart, int r, int c, int index,
                                         int codedLength) {
        writeHeader(TYPE, source);
        Bytes.putInt(buffer, offset + GROUP_OFFSET, group);
        Bytes.putLong(buffer, offset + BLOCK_START_OFFSET, blockStart);
        buffer[offset + R_OFFSET] = (byte) r;
        buffer[offset + C_OFFSET] = (byte) c;
        buffer[offset + INDEX_OFFSET] = (byte) index;
        buffer[offset + RESERVED_OFFSET] = 0;
        Bytes.putShort(buffer, offset + CODED_LENGTH_OFFSET, codedLength);
        frameLength(frameLength(r, codedLength));
        return this;
    }

    public FecRepairFlyweight dataLength(int j, int length) {
        Bytes.putShort(buffer, offset + LENGTHS_OFFSET + 2 * j, length);
        return this;
    }
}
