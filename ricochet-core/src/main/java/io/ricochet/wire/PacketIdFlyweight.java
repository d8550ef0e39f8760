package io.ricochet.wire;

/**
 * The header followed by a data packet id, the common start of DATA, RETRANSMIT, NAK, GONE and SESSION frames:
 * original sender (32 bits), group (32 bits) and sequence number (64 bits) at offsets 12, 16 and 20.
 */
public abstract class PacketIdFlyweight extends HeaderFlyweight {
    public static final int ORIGIN_OFFSET = HEADER_LENGTH;
    public static final int GROUP_OFFSET = ORIGIN_OFFSET + 4;
    public static final int SEQNO_OFFSET = GROUP_OFFSET + 4;
    /** Length of the header plus the id. */
    public static final int ID_END = SEQNO_OFFSET + 8;

    public int origin() {
        return Bytes.getInt(buffer, offset + ORIGIN_OFFSET);
    }

    public int group() {
        return Bytes.getInt(buffer, offset + GROUP_OFFSET);
    }

    public long seqno() {
        return Bytes.getLong(buffer, offset + SEQNO_OFFSET);
    }

    /** Writes the header (frame length excluded) and the id. */
    protected void writeId(int type, int source, int origin, int group, long seqno) {
        writeHeader(type, source);
        Bytes.putInt(buffer, offset + ORIGIN_OFFSET, origin);
        Bytes.putInt(buffer, offset + GROUP_OFFSET, group);
        Bytes.putLong(buffer, offset + SEQNO_OFFSET, seqno);
    }
}
