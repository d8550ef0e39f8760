package io.ricochet.qsm;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;

/**
 * QSM's token ({@link FrameType#QSM_TOKEN}), unicast around a ring of a group's members: a partition's ring (level
 * 0; the whole group's when it is not split) or the ring of the partition leaders (level 1) (docs/design/qsm.md).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Header (12 bytes, see HeaderFlyweight; Source = holder)  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Epoch (64 bits, >= 0)                   |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Generator (the member that made it)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Round (>= 0)                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Idle Rounds  |  Level (0, 1) |         Sender Count          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Record Count          |  Sender entries (29 bytes each), then records (21 bytes each) ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Sender entry: Origin (32) | Flags (8: 1 = partial round, 2 = complete) | Highest Seqno Sent (64, >= -1)
 *               | Stable (64, >= 0: every member holds every seqno below) | Accumulated (64, >= 0: this round's
 *               minimum so far)
 * Record:       Origin (32) | Seqno (64, >= 0) | Missing Member (32) | Holder (32, -1 = none yet, -2 = the origin
 *               is asked: no other member of the group has it) | Rounds (8)
 * </pre>
 *
 * Rules checked by {@link QsmFrameValidator#check}: Level &lt;= {@link #MAX_LEVEL}, Sender Count &lt;=
 * {@link #MAX_SENDERS}, Record Count &lt;= {@link #MAX_RECORDS}, Frame Length = {@link #lengthOf}, and the field
 * bounds shown. A token fits one standard frame whatever it carries. The engine checks what the bytes mean (members,
 * consistent seqnos).
 */
public final class QsmTokenFlyweight extends HeaderFlyweight {
    public static final int GROUP_OFFSET = HEADER_LENGTH;
    public static final int EPOCH_OFFSET = GROUP_OFFSET + 4;
    public static final int GENERATOR_OFFSET = EPOCH_OFFSET + 8;
    public static final int ROUND_OFFSET = GENERATOR_OFFSET + 4;
    public static final int IDLE_OFFSET = ROUND_OFFSET + 4;
    public static final int LEVEL_OFFSET = IDLE_OFFSET + 1;
    public static final int SENDER_COUNT_OFFSET = IDLE_OFFSET + 2;
    public static final int RECORD_COUNT_OFFSET = SENDER_COUNT_OFFSET + 2;
    public static final int ENTRIES_OFFSET = RECORD_COUNT_OFFSET + 2;

    public static final int SENDER_ORIGIN = 0;
    public static final int SENDER_FLAGS = 4;
    public static final int SENDER_HIGHEST = 5;
    public static final int SENDER_STABLE = 13;
    public static final int SENDER_ACC = 21;
    public static final int SENDER_LENGTH = 29;
    /** Sender flag: the entry joined the token after this round's start at the leader; its minimum is partial. */
    public static final int PARTIAL = 1;
    /** Sender flag: at the last round's end every member held every packet the sender had sent. */
    public static final int COMPLETE = 2;
    public static final int ALL_FLAGS = PARTIAL | COMPLETE;

    public static final int RECORD_ORIGIN = 0;
    public static final int RECORD_SEQNO = 4;
    public static final int RECORD_MISSING = 12;
    public static final int RECORD_HOLDER = 16;
    public static final int RECORD_ROUNDS = 20;
    public static final int RECORD_LENGTH = 21;
    /** Holder of a record nobody answered yet. */
    public static final int NO_HOLDER = -1;
    /** Holder of a record that no other member of the group could answer: the packet's origin is asked for it. */
    public static final int ASK_ORIGIN = -2;
    /** Highest level: 0 is a partition's ring (or an unsplit group's), 1 the ring of the partition leaders. */
    public static final int MAX_LEVEL = 1;

    /** Most sender entries a token carries. */
    public static final int MAX_SENDERS = 16;
    /** Most recovery records a token carries: as many as fit a standard frame beside the most senders. */
    public static final int MAX_RECORDS =
            (STANDARD_FRAME_LENGTH - ENTRIES_OFFSET - MAX_SENDERS * SENDER_LENGTH) / RECORD_LENGTH;

    @Override
    public QsmTokenFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Frame length of a token with {@code senders} entries and {@code records} records. */
    public static int lengthOf(int senders, int records) {
        return ENTRIES_OFFSET + senders * SENDER_LENGTH + records * RECORD_LENGTH;
    }

    /** Offset of sender entry {@code i} from the frame's start. */
    public static int senderOffset(int i) {
        return ENTRIES_OFFSET + i * SENDER_LENGTH;
    }

    /** Offset of record {@code i} from the frame's start, behind {@code senders} entries. */
    public static int recordOffset(int senders, int i) {
        return ENTRIES_OFFSET + senders * SENDER_LENGTH + i * RECORD_LENGTH;
    }

    public int group() {
        return Bytes.getInt(buffer, offset + GROUP_OFFSET);
    }

    public long epoch() {
        return Bytes.getLong(buffer, offset + EPOCH_OFFSET);
    }

    public int generator() {
        return Bytes.getInt(buffer, offset + GENERATOR_OFFSET);
    }

    public int round() {
        return Bytes.getInt(buffer, offset + ROUND_OFFSET);
    }

    public int idleRounds() {
        return Bytes.getUnsignedByte(buffer, offset + IDLE_OFFSET);
    }

    public int level() {
        return Bytes.getUnsignedByte(buffer, offset + LEVEL_OFFSET);
    }

    public int senderCount() {
        return Bytes.getUnsignedShort(buffer, offset + SENDER_COUNT_OFFSET);
    }

    public int recordCount() {
        return Bytes.getUnsignedShort(buffer, offset + RECORD_COUNT_OFFSET);
    }

    public int senderOrigin(int i) {
        return Bytes.getInt(buffer, offset + senderOffset(i) + SENDER_ORIGIN);
    }

    public int senderFlags(int i) {
        return Bytes.getUnsignedByte(buffer, offset + senderOffset(i) + SENDER_FLAGS);
    }

    public long senderHighest(int i) {
        return Bytes.getLong(buffer, offset + senderOffset(i) + SENDER_HIGHEST);
    }

    public long senderStable(int i) {
        return Bytes.getLong(buffer, offset + senderOffset(i) + SENDER_STABLE);
    }

    public long senderAcc(int i) {
        return Bytes.getLong(buffer, offset + senderOffset(i) + SENDER_ACC);
    }

    public int recordOrigin(int i) {
        return Bytes.getInt(buffer, offset + recordOffset(senderCount(), i) + RECORD_ORIGIN);
    }

    public long recordSeqno(int i) {
        return Bytes.getLong(buffer, offset + recordOffset(senderCount(), i) + RECORD_SEQNO);
    }

    public int recordMissing(int i) {
        return Bytes.getInt(buffer, offset + recordOffset(senderCount(), i) + RECORD_MISSING);
    }

    public int recordHolder(int i) {
        return Bytes.getInt(buffer, offset + recordOffset(senderCount(), i) + RECORD_HOLDER);
    }

    public int recordRounds(int i) {
        return Bytes.getUnsignedByte(buffer, offset + recordOffset(senderCount(), i) + RECORD_ROUNDS);
    }

    /** Writes the fixed part of a level-0 token with room for {@code senders} entries and {@code records} records. */
    public int writeHead(int source, int group, long epoch, int generator, int round, int idleRounds, int senders,
                         int records) {
        return writeHead(source, group, 0, epoch, generator, round, idleRounds, senders, records);
    }

    /** Writes the fixed part of a token of ring {@code level} with room for the given entries and records. */
    public int writeHead(int source, int group, int level, long epoch, int generator, int round, int idleRounds,
                         int senders, int records) {
        if (senders < 0 || senders > MAX_SENDERS || records < 0 || records > MAX_RECORDS || level < 0
                || level > MAX_LEVEL) {
            throw new IllegalArgumentException("level " + level + ", " + senders + " senders, " + records
                    + " records: at most " + MAX_LEVEL + ", " + MAX_SENDERS + " and " + MAX_RECORDS);
        }
        writeHeader(FrameType.QSM_TOKEN, source);
        Bytes.putInt(buffer, offset + GROUP_OFFSET, group);
        Bytes.putLong(buffer, offset + EPOCH_OFFSET, epoch);
        Bytes.putInt(buffer, offset + GENERATOR_OFFSET, generator);
        Bytes.putInt(buffer, offset + ROUND_OFFSET, round);
        buffer[offset + IDLE_OFFSET] = (byte) Math.min(idleRounds, 255);
        buffer[offset + LEVEL_OFFSET] = (byte) level;
        Bytes.putShort(buffer, offset + SENDER_COUNT_OFFSET, senders);
        Bytes.putShort(buffer, offset + RECORD_COUNT_OFFSET, records);
        int length = lengthOf(senders, records);
        frameLength(length);
        return length;
    }

    /** Writes sender entry {@code i} (after {@link #writeHead}). */
    public void putSender(int i, int origin, int flags, long highest, long stable, long acc) {
        int e = offset + senderOffset(i);
        Bytes.putInt(buffer, e + SENDER_ORIGIN, origin);
        buffer[e + SENDER_FLAGS] = (byte) flags;
        Bytes.putLong(buffer, e + SENDER_HIGHEST, highest);
        Bytes.putLong(buffer, e + SENDER_STABLE, stable);
        Bytes.putLong(buffer, e + SENDER_ACC, acc);
    }

    /** Writes record {@code i} (after {@link #writeHead} and with the sender count already set). */
    public void putRecord(int i, int origin, long seqno, int missing, int holder, int rounds) {
        int r = offset + recordOffset(senderCount(), i);
        Bytes.putInt(buffer, r + RECORD_ORIGIN, origin);
        Bytes.putLong(buffer, r + RECORD_SEQNO, seqno);
        Bytes.putInt(buffer, r + RECORD_MISSING, missing);
        Bytes.putInt(buffer, r + RECORD_HOLDER, holder);
        buffer[r + RECORD_ROUNDS] = (byte) Math.min(rounds, 255);
    }
}
