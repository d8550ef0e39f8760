package io.ricochet.wire;

/**
 * One LT-coded symbol of a range of a sender's packets ({@link FrameType#FOUNTAIN}): the fountain backup behind LEC
 * (docs/design/fountain.md, section 6). A sender that gets NAKs for a run of its packets longer than LEC repairs
 * multicasts such symbols to the group; each receiver rebuilds the packets it misses from any slightly more than
 * count of them. The source symbols are the range's payloads, in seqno order, each padded with zeros to the symbol
 * size; the lengths let a receiver cut the rebuilt payloads.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Header (12 bytes, see HeaderFlyweight; source = origin)   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                First Sequence Number (64 bits)                |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Count (packets)        |          Symbol Size          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Code Seed (64 bits)                        |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Symbol Id (64 bits)                        |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Count payload lengths, 16 bits each, in seqno order ...      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Symbol (Symbol Size bytes) ...                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * The range is [first, first + count - 1], 1 <= count <= {@link #MAX_PACKETS}, first >= 0 and the range does not
 * pass {@link Long#MAX_VALUE}; every length is at most the symbol size, which is the longest length (1 if every
 * payload is empty); the frame is exactly {@link #frameLength(int, int)} bytes. The code is LT with the robust
 * soliton parameters {@link #C} and {@link #DELTA}, and {@code Code Seed}: symbol {@code id} is the XOR of the
 * source symbols {@code io.ricochet.fountain.SymbolDraw} draws for it. The origin is the header's source: only a
 * packet's origin sends symbols of it, so a datagram authenticated as the origin's carries the origin's bytes.
 */
public final class FountainFlyweight extends HeaderFlyweight {
    public static final int GROUP_OFFSET = HEADER_LENGTH;
    public static final int FIRST_OFFSET = GROUP_OFFSET + 4;
    public static final int COUNT_OFFSET = FIRST_OFFSET + 8;
    public static final int SYMBOL_SIZE_OFFSET = COUNT_OFFSET + 2;
    public static final int SEED_OFFSET = SYMBOL_SIZE_OFFSET + 2;
    public static final int SYMBOL_ID_OFFSET = SEED_OFFSET + 8;
    public static final int LENGTHS_OFFSET = SYMBOL_ID_OFFSET + 8;
    /** Packets in one range at most (the receiver's decoders are sized by it). */
    public static final int MAX_PACKETS = 256;
    /** The robust soliton distribution's c for every fountain backup code. */
    public static final double C = 0.1;
    /** The robust soliton distribution's delta for every fountain backup code. */
    public static final double DELTA = 0.5;

    @Override
    public FountainFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /** Length of a frame over {@code count} packets with symbols of {@code symbolSize} bytes. */
    public static int frameLength(int count, int symbolSize) {
        return LENGTHS_OFFSET + 2 * count + symbolSize;
    }

    /** The most packets a range may hold so that its symbols of {@code maxPayload} bytes fit {@code maxFrame}. */
    public static int maxPackets(int maxPayload, int maxFrame) {
        return Math.max(0, Math.min(MAX_PACKETS, (maxFrame - LENGTHS_OFFSET - Math.max(1, maxPayload)) / 2));
    }

    /** The symbol size of a range whose longest payload is {@code longest} bytes. */
    public static int symbolSize(int longest) {
        return Math.max(1, longest);
    }

    public int group() {
        return Bytes.getInt(buffer, offset + GROUP_OFFSET);
    }

    public long first() {
        return Bytes.getLong(buffer, offset + FIRST_OFFSET);
    }

    public int count() {
        return Bytes.getUnsignedShort(buffer, offset + COUNT_OFFSET);
    }

    public int symbolSize() {
        return Bytes.getUnsignedShort(buffer, offset + SYMBOL_SIZE_OFFSET);
    }

    public long seed() {
        return Bytes.getLong(buffer, offset + SEED_OFFSET);
    }

    public long symbolId() {
        return Bytes.getLong(buffer, offset + SYMBOL_ID_OFFSET);
    }

    /** Payload length of the range's packet {@code index} (0 .. count - 1). */
    public int length(int index) {
        return Bytes.getUnsignedShort(buffer, offset + LENGTHS_OFFSET + 2 * index);
    }

    public int symbolOffset() {
        return offset + LENGTHS_OFFSET + 2 * count();
    }

    /**
     * Writes a complete frame: the lengths from {@code lengths[0, count)}, the symbol from
     * {@code symbol[symbolAt, symbolAt + symbolSize)}; returns its length.
     */
    public int write(int origin, int group, long first, int count, int symbolSize, long seed, long symbolId,
                     int[] lengths, byte[] symbol, int symbolAt) {
        writeHeader(FrameType.FOUNTAIN, origin);
        Bytes.putInt(buffer, offset + GROUP_OFFSET, group);
        Bytes.putLong(buffer, offset + FIRST_OFFSET, first);
        Bytes.putShort(buffer, offset + COUNT_OFFSET, count);
        Bytes.putShort(buffer, offset + SYMBOL_SIZE_OFFSET, symbolSize);
        Bytes.putLong(buffer, offset + SEED_OFFSET, seed);
        Bytes.putLong(buffer, offset + SYMBOL_ID_OFFSET, symbolId);
        for (int i = 0; i < count; i++) {
            Bytes.putShort(buffer, offset + LENGTHS_OFFSET + 2 * i, lengths[i]);
        }
        System.arraycopy(symbol, symbolAt, buffer, offset + LENGTHS_OFFSET + 2 * count, symbolSize);
        int length = frameLength(count, symbolSize);
        frameLength(length);
        return length;
    }
}
