package io.ricochet.wire;

/**
 * A list of one node's streams, each with a seqno: two frames share this layout.
 *
 * <p>{@link FrameType#STABLE}, a receiver's report to one sender of how far it has resolved the sender's streams: for
 * each listed group, every packet of the sender's stream there below the seqno is delivered or given up at the
 * reporting node (the header's source), which will never NAK it; and, with the {@link #PROGRESS} flag, how far it has
 * received: every seqno below the second one has arrived or is known missing there (the sender's send window counts
 * from it, so a loss waiting for its NAK does not hold the sender back). Unicast to the sender once per report
 * interval, with every group whose stream moved (several frames if they do not fit one).
 *
 * <p>{@link FrameType#SESSIONS}, a sender's announcement of its highest seqno in several groups at once (the
 * header's source and the Original Sender are the announcer, flags 0): the SESSION of each listed group, multicast to
 * one of them whose members are exactly those of every group listed, so one datagram does the work of several.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                   Original Sender (the streams' owner)        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             Count             |             Flags             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Count entries: Group (32 bits), a Sequence Number (64 bits): |
 * |  STABLE's first one not yet resolved, SESSIONS' highest sent; |
 * |  and with PROGRESS the first one not yet received or known    |
 * |  missing (64 bits)                                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * Flags is 0 (entries of 12 bytes, as written before the progress field) or, in a STABLE only, {@link #PROGRESS}
 * (entries of 20 bytes). The frame length is exactly {@code 20 + entry length * count}, 1 <= count <=
 * {@link #maxEntries} (a standard frame), no sequence number is negative, and a progress is never below its entry's
 * resolved seqno.
 */
public final class StreamListFlyweight extends HeaderFlyweight {
    public static final int ORIGIN_OFFSET = HEADER_LENGTH;
    public static final int COUNT_OFFSET = ORIGIN_OFFSET + 4;
    public static final int FLAGS_OFFSET = COUNT_OFFSET + 2;
    public static final int ENTRIES_OFFSET = COUNT_OFFSET + 4;
    /** Flags bit: every entry also carries the reporter's progress. The only flag; other bits are refused. */
    public static final int PROGRESS = 1;
    /** Bytes of an entry without progress (group, resolved seqno). */
    public static final int ENTRY_LENGTH = 12;
    /** Bytes of an entry with progress (group, resolved seqno, progress). */
    public static final int PROGRESS_ENTRY_LENGTH = 20;
    /** Entries in one frame without progress at most: it stays a standard frame. */
    public static final int MAX_ENTRIES = (STANDARD_FRAME_LENGTH - ENTRIES_OFFSET) / ENTRY_LENGTH;
    /** Entries in one frame with progress at most. */
    public static final int MAX_PROGRESS_ENTRIES = (STANDARD_FRAME_LENGTH - ENTRIES_OFFSET) / PROGRESS_ENTRY_LENGTH;

    @Override
    public StreamListFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Length of a frame of {@code count} entries without progress. */
    public static int lengthOf(int count) {
        return lengthOf(count, 0);
    }

    /** Length of a frame of {@code count} entries with these flags. */
    public static int lengthOf(int count, int flags) {
        return ENTRIES_OFFSET + count * entryLength(flags);
    }

    /** Bytes of an entry under these flags. */
    public static int entryLength(int flags) {
        return (flags & PROGRESS) != 0 ? PROGRESS_ENTRY_LENGTH : ENTRY_LENGTH;
    }

    /** Entries one standard frame holds at most under these flags. */
    public static int maxEntries(int flags) {
        return (flags & PROGRESS) != 0 ? MAX_PROGRESS_ENTRIES : MAX_ENTRIES;
    }

    public int origin() {
        return Bytes.getInt(buffer, offset + ORIGIN_OFFSET);
    }

    public int count() {
        return Bytes.getUnsignedShort(buffer, offset + COUNT_OFFSET);
    }

    public int flags() {
        return Bytes.getUnsignedShort(buffer, offset + FLAGS_OFFSET);
    }

    private int entry(int entry) {
        return offset + ENTRIES_OFFSET + entry * entryLength(flags());
    }

    public int group(int entry) {
        return Bytes.getInt(buffer, entry(entry));
    }

    /** STABLE: every seqno below this one is resolved at the reporter. SESSIONS: the highest seqno sent. */
    public long seqno(int entry) {
        return Bytes.getLong(buffer, entry(entry) + 4);
    }

    /**
     * Every seqno below this one has arrived at the reporter or is known missing there: the entry's progress, or its
     * resolved seqno in a frame without {@link #PROGRESS}.
     */
    public long progress(int entry) {
        return (flags() & PROGRESS) != 0 ? Bytes.getLong(buffer, entry(entry) + 12) : seqno(entry);
    }

    /** Starts a STABLE to {@code origin} with progress and no entries yet; {@link #add} them, then {@link #finish}. */
    public void begin(int source, int origin) {
        begin(FrameType.STABLE, source, origin, PROGRESS);
    }

    /**
     * Starts a SESSIONS frame of {@code source}'s own streams, with no entries yet; {@link #add(int, long)} them, then
     * {@link #finish}.
     */
    public void beginSessions(int source) {
        begin(FrameType.SESSIONS, source, source, 0);
    }

    private void begin(int type, int source, int origin, int flags) {
        writeHeader(type, source);
        Bytes.putInt(buffer, offset + ORIGIN_OFFSET, origin);
        Bytes.putShort(buffer, offset + COUNT_OFFSET, 0);
        Bytes.putShort(buffer, offset + FLAGS_OFFSET, flags);
    }

    /** Appends an entry to a frame without progress; false (nothing written) if it holds {@link #MAX_ENTRIES}. */
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

    /**
     * Appends an entry: resolved below {@code seqno}, received or known missing below {@code progress} (at least
     * {@code seqno}); false (nothing written) if the frame already holds {@link #MAX_PROGRESS_ENTRIES}.
     */
    public boolean add(int group, long seqno, long progress) {
        int count = count();
        if (count == MAX_PROGRESS_ENTRIES) {
            return false;
        }
        int at = offset + ENTRIES_OFFSET + count * PROGRESS_ENTRY_LENGTH;
        Bytes.putInt(buffer, at, group);
        Bytes.putLong(buffer, at + 4, seqno);
        Bytes.putLong(buffer, at + 12, Math.max(seqno, progress));
        Bytes.putShort(buffer, offset + COUNT_OFFSET, count + 1);
        return true;
    }

    /** Sets the frame length for the entries added; returns it. */
    public int finish() {
        int length = lengthOf(count(), flags());
        frameLength(length);
        return length;
    }
}
