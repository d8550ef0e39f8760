package io.ricochet.fec;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.FrameValidator.Verdict;

/**
 * The gate for FEC's own frames: {@link FrameValidator#checkHeader} (size, magic, version, frame length equal to
 * the datagram's), then the exact body rules of {@link FecRepairFlyweight}. Like the shared validator it reads
 * only inside {@code [offset, offset + length)}, allocates nothing and never throws.
 */
public final class FecFrameValidator {
    private FecFrameValidator() {
    }

    /** True for a type id this protocol owns (the FEC range of {@code FrameType}). */
    public static boolean isFecType(int type) {
        return type >= FrameType.FEC_FIRST && type <= FrameType.FEC_LAST;
    }

    /** Checks one frame of an FEC type occupying exactly {@code buffer[offset, offset + length)}. */
    public static Verdict check(byte[] buffer, int offset, int length) {
        Verdict header = FrameValidator.checkHeader(buffer, offset, length);
        if (header != Verdict.OK) {
            return header;
        }
        int type = Bytes.getUnsignedByte(buffer, offset + FecRepairFlyweight.TYPE_OFFSET);
        return type == FecRepairFlyweight.TYPE ? checkRepair(buffer, offset, length) : Verdict.UNKNOWN_TYPE;
    }

    private static Verdict checkRepair(byte[] b, int off, int length) {
        if (length < FecRepairFlyweight.LENGTHS_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int r = Bytes.getUnsignedByte(b, off + FecRepairFlyweight.R_OFFSET);
        int c = Bytes.getUnsignedByte(b, off + FecRepairFlyweight.C_OFFSET);
        int index = Bytes.getUnsignedByte(b, off + FecRepairFlyweight.INDEX_OFFSET);
        long start = Bytes.getLong(b, off + FecRepairFlyweight.BLOCK_START_OFFSET);
        if (r < 1 || r > FecRepairFlyweight.MAX_R || c < 1 || c > FecRepairFlyweight.MAX_C || index >= c
                || Bytes.getUnsignedByte(b, off + FecRepairFlyweight.RESERVED_OFFSET) != 0
                || start < 0 || start > Long.MAX_VALUE - r) {
            return Verdict.BAD_FIELD;
        }
        int codedLength = Bytes.getUnsignedShort(b, off + FecRepairFlyweight.CODED_LENGTH_OFFSET);
        if (FecRepairFlyweight.frameLength(r, codedLength) != length) {
            return Verdict.BAD_LENGTH;
        }
        int longest = 0;
        for (int j = 0; j < r; j++) {
            longest = Math.max(longest, Bytes.getUnsignedShort(b, off + FecRepairFlyweight.LENGTHS_OFFSET + 2 * j));
        }
        return longest == codedLength ? Verdict.OK : Verdict.BAD_FIELD;
    }
}
