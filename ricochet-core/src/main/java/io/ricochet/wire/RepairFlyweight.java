package io.ricochet.wire;

/**
 * A LEC repair packet ({@link FrameType#REPAIR}): the ids and lengths of the data packets it is composed from,
 * and the XOR of their payloads, each zero-padded to the longest (paper, section 4 and Figure 3).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Entry Count  |  Seal Length  |       XOR Payload Length      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Entry 0: Original Sender (32) | Group (32) | Seqno (64)      |
 * |           Payload Length (16)  | Reserved (16)                |   20 bytes per entry
 * |           Origin's seal (Seal Length bytes)                  ...   + Seal Length
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  ... Entry Count entries ...                                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 XOR Payload (XOR Payload Length bytes)       ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The seal of an entry is the authentication trailer its origin sent the data packet with (in an authenticated
 * cluster; Seal Length 0 otherwise), so a receiver can check a packet rebuilt by XOR against what its origin sent
 * (docs/design/security.md, "Recovered packets").
 *
 * <p>Rules checked by {@link FrameValidator}: 1 &lt;= count &lt;= {@link #MAX_ENTRIES}; Seal Length &lt;=
 * {@link #MAX_SEAL_LENGTH}; the XOR payload length equals the largest entry length; Frame Length = 16 + (20 + Seal
 * Length) * count + XOR payload length. A repair of r = 8 entries over 1024-byte payloads is 1200 bytes without
 * seals, 1400 with 25-byte seals: one datagram under a 1500-byte MTU.
 */
public final class RepairFlyweight extends HeaderFlyweight {
    public static final int COUNT_OFFSET = HEADER_LENGTH;
    public static final int SEAL_LENGTH_OFFSET = COUNT_OFFSET + 1;
    public static final int PAYLOAD_LENGTH_OFFSET = COUNT_OFFSET + 2;
    public static final int ENTRIES_OFFSET = COUNT_OFFSET + 4;
    public static final int ENTRY_LENGTH = 20;
    public static final int ENTRY_ORIGIN_OFFSET = 0;
    public static final int ENTRY_GROUP_OFFSET = 4;
    public static final int ENTRY_SEQNO_OFFSET = 8;
    public static final int ENTRY_LENGTH_OFFSET = 16;
    /** Most data packets one repair may name; bounds the rate-of-fire r. */
    public static final int MAX_ENTRIES = 32;
    /** Longest seal an entry may carry. */
    public static final int MAX_SEAL_LENGTH = 32;

    @Override
    public RepairFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Frame length of a repair with {@code count} unsealed entries and an XOR payload of {@code payloadLength}. */
    public static int frameLength(int count, int payloadLength) {
        return frameLength(count, payloadLength, 0);
    }

    /** Frame length of a repair with {@code count} entries of {@code sealLength}-byte seals and that payload. */
    public static int frameLength(int count, int payloadLength, int sealLength) {
        return ENTRIES_OFFSET + count * (ENTRY_LENGTH + sealLength) + payloadLength;
    }

    public int count() {
        return Bytes.getUnsignedByte(buffer, offset + COUNT_OFFSET);
    }

    /** Bytes of each entry's seal: 0 when the cluster does not authenticate. */
    public int sealLength() {
        return Bytes.getUnsignedByte(buffer, offset + SEAL_LENGTH_OFFSET);
    }

    public int payloadLength() {
        return Bytes.getUnsignedShort(buffer, offset + PAYLOAD_LENGTH_OFFSET);
    }

    public int payloadOffset() {
        return offset + ENTRIES_OFFSET + count() * (ENTRY_LENGTH + sealLength());
    }

    private int entry(int i) {
        return offset + ENTRIES_OFFSET + i * (ENTRY_LENGTH + sealLength());
    }

    /** Where entry {@code i}'s seal starts in {@link #buffer()} ({@link #sealLength()} bytes). */
    public int entrySealOffset(int i) {
        return entry(i) + ENTRY_LENGTH;
    }

    public int entryOrigin(int i) {
        return Bytes.getInt(buffer, entry(i) + ENTRY_ORIGIN_OFFSET);
    }

    public int entryGroup(int i) {
        return Bytes.getInt(buffer, entry(i) + ENTRY_GROUP_OFFSET);
    }

    public long entrySeqno(int i) {
        return Bytes.getLong(buffer, entry(i) + ENTRY_SEQNO_OFFSET);
    }

    public int entryLength(int i) {
        return Bytes.getUnsignedShort(buffer, entry(i) + ENTRY_LENGTH_OFFSET);
    }

    /** Writes the header of a repair without seals; entries and payload follow with the calls below. */
    public RepairFlyweight writeStart(int source, int count, int payloadLength) {
        return writeStart(source, count, payloadLength, 0);
    }

    /** Writes the header and the count/seal-length/payload-length word; entries and payload follow. */
    public RepairFlyweight writeStart(int source, int count, int payloadLength, int sealLength) {
        writeHeader(FrameType.REPAIR, source);
        buffer[offset + COUNT_OFFSET] = (byte) count;
        buffer[offset + SEAL_LENGTH_OFFSET] = (byte) sealLength;
        Bytes.putShort(buffer, offset + PAYLOAD_LENGTH_OFFSET, payloadLength);
        frameLength(frameLength(count, payloadLength, sealLength));
        return this;
    }

    public RepairFlyweight entry(int i, int origin, int group, long seqno, int length) {
        int at = entry(i);
        Bytes.putInt(buffer, at + ENTRY_ORIGIN_OFFSET, origin);
        Bytes.putInt(buffer, at + ENTRY_GROUP_OFFSET, group);
        Bytes.putLong(buffer, at + ENTRY_SEQNO_OFFSET, seqno);
        Bytes.putShort(buffer, at + ENTRY_LENGTH_OFFSET, length);
        Bytes.putShort(buffer, at + ENTRY_LENGTH_OFFSET + 2, 0);
        return this;
    }

    /** Copies entry {@code i}'s seal ({@link #sealLength()} bytes) from {@code seal[sealOffset..]}. */
    public RepairFlyweight entrySeal(int i, byte[] seal, int sealOffset) {
        System.arraycopy(seal, sealOffset, buffer, entrySealOffset(i), sealLength());
        return this;
    }
}
