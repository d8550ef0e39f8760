package io.ricochet.srm;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;

/**
 * The gate every frame an SRM engine receives passes first: the common header checks of
 * {@link FrameValidator#checkHeader}, then the exact body rules of the frame's type (DATA through
 * {@link FrameValidator#check}; SRM's own types below). Any other type is {@link Verdict#UNKNOWN_TYPE}: an SRM node
 * speaks no LEC or NAK. Reads only inside {@code [offset, offset + length)}, allocates nothing, never throws.
 */
public final class SrmFrameValidator {
    private SrmFrameValidator() {
    }

    public static boolean isValid(byte[] buffer, int offset, int length) {
        return check(buffer, offset, length) == Verdict.OK;
    }

    /** Checks one frame occupying exactly {@code buffer[offset, offset + length)}. */
    public static Verdict check(byte[] buffer, int offset, int length) {
        Verdict header = FrameValidator.checkHeader(buffer, offset, length);
        if (header != Verdict.OK) {
            return header;
        }
        if (length > HeaderFlyweight.STANDARD_FRAME_LENGTH) {
            // SRM keeps to standard frames (its payload and session reports are sized for them).
            return Verdict.BAD_LENGTH;
        }
        switch (Bytes.getUnsignedByte(buffer, offset + HeaderFlyweight.TYPE_OFFSET)) {
            case FrameType.DATA:
                return FrameValidator.check(buffer, offset, length);
            case SrmFrameType.REQUEST:
                return length != SrmRequestFlyweight.LENGTH ? Verdict.BAD_LENGTH
                        : seqnoAt(buffer, offset + SrmRequestFlyweight.SEQNO_OFFSET, 0);
            case SrmFrameType.REPAIR:
                return length < SrmRepairFlyweight.REPAIR_HEADER_LENGTH ? Verdict.BAD_LENGTH
                        : seqnoAt(buffer, offset + SrmRepairFlyweight.SEQNO_OFFSET, 0);
            case SrmFrameType.SESSION:
                return checkSession(buffer, offset, length);
            default:
                return Verdict.UNKNOWN_TYPE;
        }
    }

    private static Verdict checkSession(byte[] b, int off, int length) {
        if (length < SrmSessionFlyweight.ENTRIES_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int count = Bytes.getUnsignedShort(b, off + SrmSessionFlyweight.COUNT_OFFSET);
        if (count > SrmSessionFlyweight.MAX_ENTRIES) {
            return Verdict.BAD_FIELD;
        }
        if (SrmSessionFlyweight.lengthFor(count) != length) {
            return Verdict.BAD_LENGTH;
        }
        Verdict sent = seqnoAt(b, off + SrmSessionFlyweight.HIGHEST_SENT_OFFSET, SrmSessionFlyweight.NONE);
        if (sent != Verdict.OK) {
            return sent;
        }
        for (int i = 0; i < count; i++) {
            int entry = off + SrmSessionFlyweight.ENTRIES_OFFSET + i * SrmSessionFlyweight.ENTRY_LENGTH;
            if (Bytes.getLong(b, entry + SrmSessionFlyweight.ENTRY_SEQNO_OFFSET) < 0) {
                return Verdict.BAD_FIELD;
            }
        }
        return Verdict.OK;
    }

    private static Verdict seqnoAt(byte[] b, int at, long min) {
        return Bytes.getLong(b, at) < min ? Verdict.BAD_FIELD : Verdict.OK;
    }
}
