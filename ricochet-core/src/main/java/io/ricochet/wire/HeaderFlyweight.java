package io.ricochet.wire;

/**
 * The header every Ricochet frame starts with. All fields are big-endian.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Magic 0x5243 'RC'      |    Version    |     Type      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Frame Length          |        Flags (0, reserved)    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Source Node Id                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * Frame Length counts the whole frame, header included, and must equal the datagram's length. The source is the
 * node that put this frame on the wire (for a repair, the receiver that built it).
 */
public class HeaderFlyweight {
    public static final int MAGIC = 0x5243;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 2;
    public static final int TYPE_OFFSET = 3;
    public static final int FRAME_LENGTH_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    public static final int SOURCE_OFFSET = 8;
    public static final int HEADER_LENGTH = 12;

    /**
     * A frame that fits one UDP datagram in one IP packet under a 1500-byte Ethernet MTU (1500 - 20 IP - 8 UDP):
     * the default limit of the data path, and the limit of every control frame of every protocol.
     */
    public static final int STANDARD_FRAME_LENGTH = 1472;
    /** IPv4 and UDP header bytes in front of a datagram's frame. */
    public static final int IP_UDP_OVERHEAD = 28;
    /**
     * Largest frame the wire format carries: the largest UDP payload over IPv4 (65 507 bytes) less room for a
     * 32-byte trailer. Only a data path configured for a larger MTU (jumbo frames, loopback) builds frames past
     * {@link #STANDARD_FRAME_LENGTH}; a receiver refuses frames past its own configured limit.
     */
    public static final int MAX_FRAME_LENGTH = 65_475;
    /** Smallest MTU a data path may be configured for (IPv4's minimum reassembly size). */
    public static final int MIN_MTU = 576;
    /** Largest MTU a data path may be configured for (the largest IPv4 packet). */
    public static final int MAX_MTU = 65_535;

    /**
     * The largest frame that, followed by a {@code trailerLength}-byte trailer, fits one IP packet of {@code mtu}
     * bytes without fragmentation.
     */
    public static int frameLimit(int mtu, int trailerLength) {
        return Math.min(MAX_FRAME_LENGTH, mtu - IP_UDP_OVERHEAD - trailerLength);
    }

    protected byte[] buffer;
    protected int offset;

    /** Points this flyweight at a frame starting at {@code offset}; returns {@code this}. */
    public HeaderFlyweight wrap(byte[] buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public byte[] buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int magic() {
        return Bytes.getUnsignedShort(buffer, offset + MAGIC_OFFSET);
    }

    public int version() {
        return Bytes.getUnsignedByte(buffer, offset + VERSION_OFFSET);
    }

    public int type() {
        return Bytes.getUnsignedByte(buffer, offset + TYPE_OFFSET);
    }

    public int frameLength() {
        return Bytes.getUnsignedShort(buffer, offset + FRAME_LENGTH_OFFSET);
    }

    public HeaderFlyweight frameLength(int length) {
        Bytes.putShort(buffer, offset + FRAME_LENGTH_OFFSET, length);
        return this;
    }

    public int flags() {
        return Bytes.getUnsignedShort(buffer, offset + FLAGS_OFFSET);
    }

    public int source() {
        return Bytes.getInt(buffer, offset + SOURCE_OFFSET);
    }

    /** Writes magic, version, type, zero flags and the source; the frame length is set by the caller. */
    public HeaderFlyweight writeHeader(int type, int source) {
        Bytes.putShort(buffer, offset + MAGIC_OFFSET, MAGIC);
        buffer[offset + VERSION_OFFSET] = (byte) VERSION;
        buffer[offset + TYPE_OFFSET] = (byte) type;
        Bytes.putShort(buffer, offset + FLAGS_OFFSET, 0);
        Bytes.putInt(buffer, offset + SOURCE_OFFSET, source);
        return this;
    }
}
