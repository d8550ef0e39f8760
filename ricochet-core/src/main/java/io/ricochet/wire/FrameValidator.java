package io.ricochet.wire;

/**
 * The single gate every received frame passes before any of its fields is used: magic, version, known type,
 * frame length equal to the datagram length, and the per-type layout rules. It reads only inside
 * {@code [offset, offset + length)}, allocates nothing and never throws for any input bytes.
 */
public final class FrameValidator {
    /** Why a frame was rejected; {@link #OK} when it was not. */
    public enum Verdict {
        OK, TOO_SHORT, BAD_MAGIC, BAD_VERSION, UNKNOWN_TYPE, BAD_LENGTH, BAD_FIELD
    }

    private FrameValidator() {
    }

    public static boolean isValid(byte[] buffer, int offset, int length) {
        return check(buffer, offset, length) == Verdict.OK;
    }

    /** Checks one frame occupying exactly {@code buffer[offset, offset + length)}. */
    public static Verdict check(byte[] buffer, int offset, int length) {
        Verdict prefix = checkPrefix(buffer, offset, length);
        if (prefix != Verdict.OK) {
            return prefix;
        }
        int type = Bytes.getUnsignedByte(buffer, offset + HeaderFlyweight.TYPE_OFFSET);
        if (!FrameType.isKnown(type)) {
            return Verdict.UNKNOWN_TYPE;
        }
        Verdict frameLength = checkFrameLength(buffer, offset, length);
        if (frameLength != Verdict.OK) {
            return frameLength;
        }
        switch (type) {
            case FrameType.DATA:
            case FrameType.RETRANSMIT:
                return checkData(buffer, offset, length);
            case FrameType.NAK:
            case FrameType.GONE:
            case FrameType.SESSION:
            case FrameType.TAIL:
            case FrameType.JOIN_PROBE:
            case FrameType.JOIN_POINT:
                return checkRef(buffer, offset, length);
            case FrameType.STABLE:
                return checkStreamList(buffer, offset, length, StreamListFlyweight.PROGRESS);
            case FrameType.SESSIONS:
                return checkStreamList(buffer, offset, length, 0);
            case FrameType.REPAIR:
                return checkRepair(buffer, offset, length);
            case FrameType.FOUNTAIN:
                return checkFountain(buffer, offset, length);
            case FrameType.HEARTBEAT:
            case FrameType.HEARTBEAT_ACK:
                return checkHeartbeat(buffer, offset, length);
            default:
                return Verdict.UNKNOWN_TYPE;
        }
    }

    /**
     * The checks common to every frame of every protocol: size, magic, version, and a frame length equal to the
     * datagram's and at most {@link HeaderFlyweight#MAX_FRAME_LENGTH}. The type is not checked: a protocol with
     * frame types of its own ({@link FrameType#isProtocolReserved}) checks its bodies itself after this.
     */
    public static Verdict checkHeader(byte[] buffer, int offset, int length) {
        Verdict prefix = checkPrefix(buffer, offset, length);
        return prefix != Verdict.OK ? prefix : checkFrameLength(buffer, offset, length);
    }

    private static Verdict checkPrefix(byte[] buffer, int offset, int length) {
        if (buffer == null || offset < 0 || length < 0 || length > buffer.length - offset) {
            return Verdict.TOO_SHORT;
        }
        if (length < HeaderFlyweight.HEADER_LENGTH) {
            return Verdict.TOO_SHORT;
        }
        if (Bytes.getUnsignedShort(buffer, offset + HeaderFlyweight.MAGIC_OFFSET) != HeaderFlyweight.MAGIC) {
            return Verdict.BAD_MAGIC;
        }
        if (Bytes.getUnsignedByte(buffer, offset + HeaderFlyweight.VERSION_OFFSET) != HeaderFlyweight.VERSION) {
            return Verdict.BAD_VERSION;
        }
        return Verdict.OK;
    }

    private static Verdict checkFrameLength(byte[] buffer, int offset, int length) {
        int frameLength = Bytes.getUnsignedShort(buffer, offset + HeaderFlyweight.FRAME_LENGTH_OFFSET);
        boolean bad = frameLength != length || frameLength > HeaderFlyweight.MAX_FRAME_LENGTH;
        return bad ? Verdict.BAD_LENGTH : Verdict.OK;
    }

    /**
     * DATA's body rules, for a frame of a protocol's own type that has DATA's layout (QSM's repair), once
     * {@link #checkHeader} passed: at least a DATA header, and a seqno &gt;= 0.
     */
    public static Verdict checkData(byte[] b, int off, int length) {
        if (length < DataFlyweight.DATA_HEADER_LENGTH) {
            return Verdict.BAD_LENGTH;
        }
        return Bytes.getLong(b, off + DataFlyweight.SEQNO_OFFSET) < 0 ? Verdict.BAD_FIELD : Verdict.OK;
    }

    private static Verdict checkRef(byte[] b, int off, int length) {
        if (!PacketRefFlyweight.validLength(Bytes.getUnsignedByte(b, off + HeaderFlyweight.TYPE_OFFSET), length)) {
            return Verdict.BAD_LENGTH;
        }
        return Bytes.getLong(b, off + PacketRefFlyweight.SEQNO_OFFSET) < 0 ? Verdict.BAD_FIELD : Verdict.OK;
    }

    /** A STABLE or SESSIONS frame: {@code allowedFlags} are the flags its type may carry. */
    private static Verdict checkStreamList(byte[] b, int off, int length, int allowedFlags) {
        if (length < StreamListFlyweight.ENTRIES_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int flags = Bytes.getUnsignedShort(b, off + StreamListFlyweight.FLAGS_OFFSET);
        if ((flags & ~allowedFlags) != 0) {
            return Verdict.BAD_FIELD;
        }
        int count = Bytes.getUnsignedShort(b, off + StreamListFlyweight.COUNT_OFFSET);
        if (count < 1 || count > StreamListFlyweight.maxEntries(flags)
                || length != StreamListFlyweight.lengthOf(count, flags)) {
            return Verdict.BAD_LENGTH;
        }
        int entryLength = StreamListFlyweight.entryLength(flags);
        for (int i = 0; i < count; i++) {
            int e = off + StreamListFlyweight.ENTRIES_OFFSET + i * entryLength;
            long seqno = Bytes.getLong(b, e + 4);
            if (seqno < 0 || (flags != 0 && Bytes.getLong(b, e + 12) < seqno)) {
                return Verdict.BAD_FIELD;
            }
        }
        return Verdict.OK;
    }

    private static Verdict checkHeartbeat(byte[] b, int off, int length) {
        if (length != HeartbeatFlyweight.LENGTH) {
            return Verdict.BAD_LENGTH;
        }
        return Bytes.getLong(b, off + HeartbeatFlyweight.SEQUENCE_OFFSET) < 0 ? Verdict.BAD_FIELD : Verdict.OK;
    }

    private static Verdict checkRepair(byte[] b, int off, int length) {
        if (length < RepairFlyweight.ENTRIES_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int count = Bytes.getUnsignedByte(b, off + RepairFlyweight.COUNT_OFFSET);
        int sealLength = Bytes.getUnsignedByte(b, off + RepairFlyweight.SEAL_LENGTH_OFFSET);
        int payloadLength = Bytes.getUnsignedShort(b, off + RepairFlyweight.PAYLOAD_LENGTH_OFFSET);
        if (count < 1 || count > RepairFlyweight.MAX_ENTRIES || sealLength > RepairFlyweight.MAX_SEAL_LENGTH) {
            return Verdict.BAD_FIELD;
        }
        if (RepairFlyweight.frameLength(count, payloadLength, sealLength) != length) {
            return Verdict.BAD_LENGTH;
        }
        int longest = 0;
        for (int i = 0; i < count; i++) {
            int entry = off + RepairFlyweight.ENTRIES_OFFSET + i * (RepairFlyweight.ENTRY_LENGTH + sealLength);
            if (Bytes.getLong(b, entry + RepairFlyweight.ENTRY_SEQNO_OFFSET) < 0) {
                return Verdict.BAD_FIELD;
            }
            longest = Math.max(longest, Bytes.getUnsignedShort(b, entry + RepairFlyweight.ENTRY_LENGTH_OFFSET));
        }
        return longest == payloadLength ? Verdict.OK : Verdict.BAD_FIELD;
    }

    private static Verdict checkFountain(byte[] b, int off, int length) {
        if (length < FountainFlyweight.LENGTHS_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int count = Bytes.getUnsignedShort(b, off + FountainFlyweight.COUNT_OFFSET);
        int symbolSize = Bytes.getUnsignedShort(b, off + FountainFlyweight.SYMBOL_SIZE_OFFSET);
        long first = Bytes.getLong(b, off + FountainFlyweight.FIRST_OFFSET);
        if (count < 1 || count > FountainFlyweight.MAX_PACKETS || symbolSize < 1 || first < 0
                || first > Long.MAX_VALUE - count) {
            return Verdict.BAD_FIELD;
        }
        if (FountainFlyweight.frameLength(count, symbolSize) != length) {
            return Verdict.BAD_LENGTH;
        }
        int longest = 0;
        for (int i = 0; i < count; i++) {
            int packet = Bytes.getUnsignedShort(b, off + FountainFlyweight.LENGTHS_OFFSET + 2 * i);
            if (packet > symbolSize) {
                return Verdict.BAD_FIELD;
            }
            longest = Math.max(longest, packet);
        }
        return FountainFlyweight.symbolSize(longest) == symbolSize ? Verdict.OK : Verdict.BAD_FIELD;
    }
}
