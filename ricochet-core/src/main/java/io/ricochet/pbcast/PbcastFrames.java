package io.ricochet.pbcast;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;

/**
 * The gate for every frame a pbcast engine receives: {@link FrameValidator#checkHeader} (magic, version, frame
 * length), then the exact body rules of the type. The shared DATA frame goes through {@link FrameValidator#check};
 * pbcast's own frames are checked here. Reads only inside {@code [offset, offset + length)}, allocates nothing and
 * never throws, whatever the bytes.
 */
public final class PbcastFrames {
    private PbcastFrames() {
    }

    /** The verdict on one frame occupying exactly {@code buffer[offset, offset + length)}. */
    public static Verdict check(byte[] buffer, int offset, int length) {
        Verdict header = FrameValidator.checkHeader(buffer, offset, length);
        if (header != Verdict.OK) {
            return header;
        }
        int type = Bytes.getUnsignedByte(buffer, offset + HeaderFlyweight.TYPE_OFFSET);
        switch (type) {
            case FrameType.DATA:
                return FrameValidator.check(buffer, offset, length);
            case PbcastFrameType.RETRANSMIT:
                return checkData(buffer, offset, length);
            case PbcastFrameType.DIGEST:
                return checkDigest(buffer, offset, length);
            case PbcastFrameType.REQUEST:
            case PbcastFrameType.INFO:
                return checkSolicit(buffer, offset, length, false);
            case PbcastFrameType.MCAST:
                return checkSolicit(buffer, offset, length, true);
            default:
                return Verdict.UNKNOWN_TYPE;
        }
    }

    private static Verdict checkData(byte[] b, int off, int length) {
        if (length < DataFlyweight.DATA_HEADER_LENGTH) {
            return Verdict.BAD_LENGTH;
        }
        return Bytes.getLong(b, off + DataFlyweight.SEQNO_OFFSET) < 0 ? Verdict.BAD_FIELD : Verdict.OK;
    }

    private static Verdict checkSolicit(byte[] b, int off, int length, boolean zeroArgument) {
        if (length != SolicitFlyweight.LENGTH) {
            return Verdict.BAD_LENGTH;
        }
        if (Bytes.getLong(b, off + SolicitFlyweight.SEQNO_OFFSET) < 0) {
            return Verdict.BAD_FIELD;
        }
        return zeroArgument && Bytes.getInt(b, off + SolicitFlyweight.ARGUMENT_OFFSET) != 0
                ? Verdict.BAD_FIELD : Verdict.OK;
    }

    private static Verdict checkDigest(byte[] b, int off, int length) {
        if (length < DigestFlyweight.ENTRIES_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int count = Bytes.getUnsignedShort(b, off + DigestFlyweight.COUNT_OFFSET);
        if (count > DigestFlyweight.MAX_ENTRIES
                || Bytes.getUnsignedShort(b, off + DigestFlyweight.RESERVED_OFFSET) != 0) {
            return Verdict.BAD_FIELD;
        }
        if (DigestFlyweight.lengthOf(count) != length) {
            return Verdict.BAD_LENGTH;
        }
        for (int i = 0; i < count; i++) {
            int entry = off + DigestFlyweight.ENTRIES_OFFSET + i * DigestFlyweight.ENTRY_LENGTH;
            long first = Bytes.getLong(b, entry + DigestFlyweight.ENTRY_FIRST_OFFSET);
            int run = Bytes.getUnsignedShort(b, entry + DigestFlyweight.ENTRY_COUNT_OFFSET);
            int flags = Bytes.getUnsignedShort(b, entry + DigestFlyweight.ENTRY_FLAGS_OFFSET);
            if (first < 0 || run < 1 || first > Long.MAX_VALUE - (run - 1)
                    || (flags & ~DigestFlyweight.FLAG_RETRANSMITTED) != 0) {
                return Verdict.BAD_FIELD;
            }
        }
        return Verdict.OK;
    }
}
