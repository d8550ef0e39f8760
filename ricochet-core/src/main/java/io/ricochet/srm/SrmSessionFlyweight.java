package io.ricochet.srm;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.HeaderFlyweight;

/**
 * An SRM session message ({@link SrmFrameType#SESSION}), multicast by every member of a group now and then: the
 * highest seqno it sent in the group, and the highest seqno it knows of from each other sender of the group
 * (SRM's "sequence number state for active sources"). A receiver behind on any of these streams discovers the
 * missing packets, which is how a lost last packet (a tail loss) is found.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Header (12 bytes, see HeaderFlyweight; Source = member)  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Highest Seqno Sent by Source (64 bits, -1 = none)     |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Entry Count          |        Reserved (0)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Entry 0: Sender (32) | Highest Seqno Heard from it (64)      |   12 bytes per entry
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  ... Entry Count entries ...                                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * Rules checked by {@link SrmFrameValidator}: Entry Count &lt;= {@link #MAX_ENTRIES}; Frame Length =
 * {@link #ENTRIES_OFFSET} + 12 * Entry Count; Highest Seqno Sent &gt;= -1; every entry's seqno &gt;= 0. The reserved
 * field is sent as 0 and ignored on receipt, like the header's flags.
 */
public final class SrmSessionFlyweight extends HeaderFlyweight {
    public static final int GROUP_OFFSET = HEADER_LENGTH;
    public static final int HIGHEST_SENT_OFFSET = GROUP_OFFSET + 4;
    public static final int COUNT_OFFSET = HIGHEST_SENT_OFFSET + 8;
    public static final int RESERVED_OFFSET = COUNT_OFFSET + 2;
    public static final int ENTRIES_OFFSET = RESERVED_OFFSET + 2;
    public static final int ENTRY_LENGTH = 12;
    public static final int ENTRY_SENDER_OFFSET = 0;
    public static final int ENTRY_SEQNO_OFFSET = 4;
    /** Most entries one session message carries: as many as fit one datagram. */
    public static final int MAX_ENTRIES = (STANDARD_FRAME_LENGTH - ENTRIES_OFFSET) / ENTRY_LENGTH;
    /** Highest Seqno Sent when the source has sent nothing in the group. */
    public static final long NONE = -1;

    @Override
    public SrmSessionFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Frame length of a session message with {@code count} entries. */
    public static int lengthFor(int count) {
        return ENTRIES_OFFSET + count * ENTRY_LENGTH;
    }

    public int group() {
        return Bytes.getInt(buffer, offset + GROUP_OFFSET);
    }

    public long highestSent() {
        return Bytes.getLong(buffer, offset + HIGHEST_SENT_OFFSET);
    }

    public int count() {
        return Bytes.getUnsignedShort(buffer, offset + COUNT_OFFSET);
    }

    private int entry(int i) {
        return offset + ENTRIES_OFFSET + i * ENTRY_LENGTH;
    }

    public int entrySender(int i) {
        return Bytes.getInt(buffer, entry(i) + ENTRY_SENDER_OFFSET);
    }

    public long entrySeqno(int i) {
        return Bytes.getLong(buffer, entry(i) + ENTRY_SEQNO_OFFSET);
    }

    /** Writes the header and the fixed fields of a message with {@code count} entries, which follow. */
    public SrmSessionFlyweight writeStart(int source, int group, long highestSent, int count) {
        writeHeader(SrmFrameType.SESSION, source);
        Bytes.putInt(buffer, offset + GROUP_OFFSET, group);
        Bytes.putLong(buffer, offset + HIGHEST_SENT_OFFSET, highestSent);
        Bytes.putShort(buffer, offset + COUNT_OFFSET, count);
        Bytes.putShort(buffer, offset + RESERVED_OFFSET, 0);
        frameLength(lengthFor(count));
        return this;
    }

    public SrmSessionFlyweight entry(int i, int sender, long highestHeard) {
        Bytes.putInt(buffer, entry(i) + ENTRY_SENDER_OFFSET, sender);
        Bytes.putLong(buffer, entry(i) + ENTRY_SEQNO_OFFSET, highestHeard);
        return this;
    }
}
