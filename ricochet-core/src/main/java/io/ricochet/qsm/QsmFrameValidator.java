package io.ricochet.qsm;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;

/**
 * The gate every frame a QSM engine receives passes first: {@link FrameValidator#checkHeader} (size, magic, version,
 * frame length equal to the datagram's), then the exact body rules of the frame's type. Like the shared validator
 * it reads only inside {@code [offset, offset + length)}, allocates nothing and never throws.
 */
public final class QsmFrameValidator {
    private QsmFrameValidator() {
    }

    /**
     * Checks one frame occupying exactly {@code buffer[offset, offset + length)}: the common header checks, then
     * DATA by {@link FrameValidator#check}, QSM_REPAIR with DATA's layout and QSM_TOKEN by the rules of
     * {@link QsmTokenFlyweight}; any other type is {@link Verdict#UNKNOWN_TYPE} (a QSM node speaks no LEC, NAK or
     * other protocol's frames). Control frames stay within a standard frame.
     */
    public static Verdict check(byte[] buffer, int offset, int length) {
        Verdict header = FrameValidator.checkHeader(buffer, offset, length);
        if (header != Verdict.OK) {
            return header;
        }
        switch (Bytes.getUnsignedByte(buffer, offset + HeaderFlyweight.TYPE_OFFSET)) {
            case FrameType.DATA:
                return FrameValidator.check(buffer, offset, length);
            case FrameType.QSM_REPAIR:
                return FrameValidator.checkData(buffer, offset, length);
            case FrameType.QSM_TOKEN:
                return length > HeaderFlyweight.STANDARD_FRAME_LENGTH ? Verdict.BAD_LENGTH
                        : checkToken(buffer, offset, length);
            default:
                return Verdict.UNKNOWN_TYPE;
        }
    }

    private static Verdict checkToken(byte[] b, int off, int length) {
        if (length < QsmTokenFlyweight.ENTRIES_OFFSET) {
            return Verdict.BAD_LENGTH;
        }
        int senders = Bytes.getUnsignedShort(b, off + QsmTokenFlyweight.SENDER_COUNT_OFFSET);
        int records = Bytes.getUnsignedShort(b, off + QsmTokenFlyweight.RECORD_COUNT_OFFSET);
        if (senders > QsmTokenFlyweight.MAX_SENDERS || records > QsmTokenFlyweight.MAX_RECORDS
                || Bytes.getUnsignedByte(b, off + QsmTokenFlyweight.LEVEL_OFFSET) > QsmTokenFlyweight.MAX_LEVEL) {
            return Verdict.BAD_FIELD;
        }
        if (QsmTokenFlyweight.lengthOf(senders, records) != length) {
            return Verdict.BAD_LENGTH;
        }
        if (Bytes.getLong(b, off + QsmTokenFlyweight.EPOCH_OFFSET) < 0
                || Bytes.getInt(b, off + QsmTokenFlyweight.ROUND_OFFSET) < 0) {
            return Verdict.BAD_FIELD;
        }
        for (int i = 0; i < senders; i++) {
            int e = off + QsmTokenFlyweight.senderOffset(i);
            if (Bytes.getUnsignedByte(b, e + QsmTokenFlyweight.SENDER_FLAGS) > QsmTokenFlyweight.ALL_FLAGS
                    || Bytes.getLong(b, e + QsmTokenFlyweight.SENDER_HIGHEST) < -1
                    || Bytes.getLong(b, e + QsmTokenFlyweight.SENDER_STABLE) < 0
                    || Bytes.getLong(b, e + QsmTokenFlyweight.SENDER_ACC) < 0) {
                return Verdict.BAD_FIELD;
            }
        }
        for (int i = 0; i < records; i++) {
            int r = off + QsmTokenFlyweight.recordOffset(senders, i);
            if (Bytes.getLong(b, r + QsmTokenFlyweight.RECORD_SEQNO) < 0) {
                return Verdict.BAD_FIELD;
            }
        }
        return Verdict.OK;
    }
}
