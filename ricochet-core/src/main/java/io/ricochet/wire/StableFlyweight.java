package io.ricochet.wire;

/**
 * A receiver's report to one sender of how far it has resolved the sender's streams ({@link FrameType#STABLE}):
 * for each listed group, every packet of the sender's stream there below the seqno is delivered or given up at the
 * reporting node (the header's source), which will never NAK it. Unicast to the sender once per report interval,
 * with every group whose stream moved (several frames if they do not fit one).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                   Original Sender (addressee)                 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             Count             |         Reserved (0)          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Count entries of 12 bytes: Group (32 bits), then the first   |
 * |  Sequence Number not yet resolved (64 bits)                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * The frame length is exactly {@code 20 + 12 * count}, 1 <= count <= {@link #MAX_ENTRIES} (a standard frame), and
 * no sequence number is negative.
 */
public final class StableFlyweight extends HeaderFlyweight {
    public static final int ORIGIN_OFFSET = HEADER_LENGTH;
    public static final int COUNT_OFFSET = ORIGIN_OFFSET + 4;
    public static final int ENTRIES_OFFSET = COUNT_OFFSET + 4;
    public static final int ENTRY_LENGTH = 12;
    /** Entries in one frame at most: it stays a standard frame. */
    public static final int MAX_ENTRIES = (STANDARD_FRAME_LENGTH - ENTRIES_OFFSET) / ENTRY_LENGTH;

    @Override
    public StableFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Length of a frame of {@code count} entries. */
    public static int lengthOf(int count) {
        return ENTRIES_OFFSET + count * ENTRY_LENGTH;
    }

    public int origin() {
        return Bytes.getInt(buffer, offset + ORIGIN_OFFSET);
    }

    public int count() {
        return Bytes.getUnsignedShort(buffer, offset + COUNT_OFFSET);
    }

    public int group(int entry) {
        return Bytes.getInt(buffer, offset + ENTRIES_OFFSET + entry * ENTRY_LENGTH);
    }

    public long seqno(int entry) {
        return Bytes.getLong(buffer, offset + ENTRIES_OFFSET + entry * ENTRY_LENGTH + 4);
    }

    /** Starts a frame to {@code origin} with no entries yet; {@link #add} them, then {@link #finish}. */
    public void begin(int source, int origin) {
        writeHeader(FrameType.STABLE, source);
        Bytes.putInt(buffer, offset + ORIGIN_OFFSET, origin);
        Bytes.putShort(buffer, offset + COUNT_OFFSET, 0);
        Bytes.putShort(buffer, offset + COUNT_OFFSET + 2, 0);
    }

    /** Appends an entry; false (nothing written) if the frame already holds {@link #MAX_ENTRIES}. */
    public boolean add(int group, long seqno) {
        int count = count();
        if (count == MAX_ENTRIES) {
            return false;
        }
        int at = offset + ENTRIES_OFFSET + count * ENTRY_LENGTH;
        Bytes.putInt(buffer, at, group);
        Bytes.putLong(buffer, at + 4, seqno);
        Bytes.putShort(buffer, offset + COUNT_OFFSET, count + 1);
        return true;
    }

    /** Sets the frame length for the entries added; returns it. */
    public int finish() {
        int length = lengthOf(count());
        frameLength(length);
        return length;
    }
}
