package io.ricochet.pbcast;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.HeaderFlyweight;

/**
 * A gossip message ({@link PbcastFrameType#DIGEST}): the identifiers of the messages of one group held in the
 * gossiper's message buffer, as runs of consecutive sequence numbers per original sender, and the gossiper's
 * round number (paper, Figure 3: {@code <PT_PBCAST_GOSSIP, message buffer digest, round number>}).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Gossiper's Round Number                    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Entry Count          |         Reserved (0)          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                   Entry 0: Original Sender                    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                First Sequence Number (64 bits)                |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             Count             |       Flags (bit 0: R)        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  ... Entry Count entries of 16 bytes ...                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * An entry says "I hold sequence numbers {@code first .. first + count - 1} of this sender in this group". Flag R
 * is the gossip retransmit bit of Pbcast-grb: the gossiper has retransmitted every message of the run. Rules
 * checked by {@link PbcastFrames}: Frame Length = {@link #ENTRIES_OFFSET} + 16 * count; count at most
 * {@link #MAX_ENTRIES}; reserved bits zero; per entry, a non-negative first seqno, a count of at least 1, a last
 * seqno that does not overflow, and no flag but R. A buffer that needs more entries is sent as several frames.
 */
public final class DigestFlyweight extends HeaderFlyweight {
    public static final int GROUP_OFFSET = HEADER_LENGTH;
    public static final int ROUND_OFFSET = GROUP_OFFSET + 4;
    public static final int COUNT_OFFSET = ROUND_OFFSET + 4;
    public static final int RESERVED_OFFSET = COUNT_OFFSET + 2;
    public static final int ENTRIES_OFFSET = RESERVED_OFFSET + 2;
    public static final int ENTRY_LENGTH = 16;
    public static final int ENTRY_ORIGIN_OFFSET = 0;
    public static final int ENTRY_FIRST_OFFSET = 4;
    public static final int ENTRY_COUNT_OFFSET = 12;
    public static final int ENTRY_FLAGS_OFFSET = 14;
    /** Entry flag: the gossiper retransmitted these messages (Pbcast-grb's gossip retransmit bit). */
    public static final int FLAG_RETRANSMITTED = 1;
    /** Largest run one entry can describe. */
    public static final int MAX_RUN = 0xFFFF;
    /** Most entries one frame can hold. */
    public static final int MAX_ENTRIES = (STANDARD_FRAME_LENGTH - ENTRIES_OFFSET) / ENTRY_LENGTH;

    private int count;

    @Override
    public DigestFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Frame length of a digest of {@code entries} entries. */
    public static int lengthOf(int entries) {
        return ENTRIES_OFFSET + entries * ENTRY_LENGTH;
    }

    public int group() {
        return Bytes.getInt(buffer, offset + GROUP_OFFSET);
    }

    public int round() {
        return Bytes.getInt(buffer, offset + ROUND_OFFSET);
    }

    public int entryCount() {
        return Bytes.getUnsignedShort(buffer, offset + COUNT_OFFSET);
    }

    private int entry(int i) {
        return offset + ENTRIES_OFFSET + i * ENTRY_LENGTH;
    }

    public int entryOrigin(int i) {
        return Bytes.getInt(buffer, entry(i) + ENTRY_ORIGIN_OFFSET);
    }

    public long entryFirst(int i) {
        return Bytes.getLong(buffer, entry(i) + ENTRY_FIRST_OFFSET);
    }

    public int entryRun(int i) {
        return Bytes.getUnsignedShort(buffer, entry(i) + ENTRY_COUNT_OFFSET);
    }

    /** Last sequence number of entry {@code i}. */
    public long entryLast(int i) {
        return entryFirst(i) + entryRun(i) - 1;
    }

    public int entryFlags(int i) {
        return Bytes.getUnsignedShort(buffer, entry(i) + ENTRY_FLAGS_OFFSET);
    }

    public boolean entryRetransmitted(int i) {
        return (entryFlags(i) & FLAG_RETRANSMITTED) != 0;
    }

    /** Starts a digest with no entries; add them with {@link #add}. */
    public DigestFlyweight start(int source, int group, int round) {
        writeHeader(PbcastFrameType.DIGEST, source);
        Bytes.putInt(buffer, offset + GROUP_OFFSET, group);
        Bytes.putInt(buffer, offset + ROUND_OFFSET, round);
        Bytes.putShort(buffer, offset + RESERVED_OFFSET, 0);
        count = 0;
        writeCount();
        return this;
    }

    /** True if another entry fits. */
    public boolean hasRoom() {
        return count < MAX_ENTRIES;
    }

    /** Appends one run; the caller checks {@link #hasRoom()} and {@code 1 <= run <= MAX_RUN}. */
    public DigestFlyweight add(int origin, long first, int run, int flags) {
        if (!hasRoom() || run < 1 || run > MAX_RUN) {
            throw new IllegalStateException("entry " + count + " of run " + run + " does not fit");
        }
        int at = entry(count);
        Bytes.putInt(buffer, at + ENTRY_ORIGIN_OFFSET, origin);
        Bytes.putLong(buffer, at + ENTRY_FIRST_OFFSET, first);
        Bytes.putShort(buffer, at + ENTRY_COUNT_OFFSET, run);
        Bytes.putShort(buffer, at + ENTRY_FLAGS_OFFSET, flags);
        count++;
        writeCount();
        return this;
    }

    /** Entries added since {@link #start}. */
    public int added() {
        return count;
    }

    private void writeCount() {
        Bytes.putShort(buffer, offset + COUNT_OFFSET, count);
        frameLength(lengthOf(count));
    }
}
