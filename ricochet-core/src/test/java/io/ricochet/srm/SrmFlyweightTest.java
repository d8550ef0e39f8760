package io.ricochet.srm;

import static io.ricochet.srm.SrmFrames.id;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Round trips of SRM's frames through their flyweights, the documented layouts, and the validator's verdicts. */
class SrmFlyweightTest {
    @Test
    void shouldUseTheTypeIdsReservedForSrm() {
        for (int type : new int[] {SrmFrameType.REQUEST, SrmFrameType.REPAIR, SrmFrameType.SESSION}) {
            assertTrue(type >= FrameType.SRM_FIRST && type <= FrameType.SRM_LAST, "type " + type);
            assertTrue(SrmFrameType.isSrm(type));
        }
        assertEquals(16, SrmFrameType.REQUEST);
        assertEquals(17, SrmFrameType.REPAIR);
        assertEquals(18, SrmFrameType.SESSION);
        assertEquals("SRM_SESSION", SrmFrameType.name(SrmFrameType.SESSION));
        assertEquals("DATA", SrmFrameType.name(FrameType.DATA));
    }

    @Test
    void shouldRoundTripARequest() {
        byte[] frame = SrmFrames.request(5, 6, 7, Long.MAX_VALUE - 1);
        assertEquals(28, frame.length);
        SrmRequestFlyweight f = new SrmRequestFlyweight().wrap(frame, 0);
        assertEquals(HeaderFlyweight.MAGIC, f.magic());
        assertEquals(SrmFrameType.REQUEST, f.type());
        assertEquals(28, f.frameLength());
        assertEquals(5, f.source());
        assertEquals(6, f.origin());
        assertEquals(7, f.group());
        assertEquals(Long.MAX_VALUE - 1, f.seqno());
        assertEquals(6, Bytes.getInt(frame, 12), "origin big-endian at offset 12");
        assertEquals(Verdict.OK, SrmFrameValidator.check(frame, 0, frame.length));
    }

    @Test
    void shouldRoundTripARepairAtAnOffset() {
        byte[] inner = SrmFrames.repair(3, 2, 9, 41);
        byte[] padded = new byte[inner.length + 10];
        System.arraycopy(inner, 0, padded, 7, inner.length);
        SrmRepairFlyweight f = new SrmRepairFlyweight().wrap(padded, 7);
        assertEquals(SrmFrameType.REPAIR, f.type());
        assertEquals(3, f.source());
        assertEquals(2, f.origin());
        assertEquals(9, f.group());
        assertEquals(41, f.seqno());
        byte[] payload = Arrays.copyOfRange(padded, f.payloadOffset(), f.payloadOffset() + f.payloadLength());
        assertArrayEquals(SrmFrames.payload(id(2, 9, 41)), payload);
        assertEquals(Verdict.OK, SrmFrameValidator.check(padded, 7, inner.length));
    }

    @Test
    void shouldRoundTripASessionWithEntries() {
        byte[] frame = SrmFrames.session(4, 12, 99, 1, 5, 2, 0, 3, Long.MAX_VALUE);
        assertEquals(SrmSessionFlyweight.ENTRIES_OFFSET + 3 * 12, frame.length);
        SrmSessionFlyweight f = new SrmSessionFlyweight().wrap(frame, 0);
        assertEquals(SrmFrameType.SESSION, f.type());
        assertEquals(4, f.source());
        assertEquals(12, f.group());
        assertEquals(99, f.highestSent());
        assertEquals(3, f.count());
        assertEquals(2, f.entrySender(1));
        assertEquals(0, f.entrySeqno(1));
        assertEquals(Long.MAX_VALUE, f.entrySeqno(2));
        assertEquals(Verdict.OK, SrmFrameValidator.check(frame, 0, frame.length));
    }

    @Test
    void shouldFitTheLargestSessionInOneDatagram() {
        assertEquals(120, SrmSessionFlyweight.MAX_ENTRIES);
        long[] heard = new long[2 * SrmSessionFlyweight.MAX_ENTRIES];
        byte[] frame = SrmFrames.session(1, 2, SrmSessionFlyweight.NONE, heard);
        assertTrue(frame.length <= HeaderFlyweight.MAX_FRAME_LENGTH);
        assertEquals(Verdict.OK, SrmFrameValidator.check(frame, 0, frame.length));
        assertEquals(-1, new SrmSessionFlyweight().wrap(frame, 0).highestSent());
    }

    @Test
    void shouldAcceptDataButNoRicochetControlFrames() {
        byte[] data = SrmFrames.data(2, 3, 4);
        assertEquals(Verdict.OK, SrmFrameValidator.check(data, 0, data.length));
        byte[] nak = SrmFrames.request(1, 2, 3, 4);
        nak[HeaderFlyweight.TYPE_OFFSET] = (byte) FrameType.NAK;
        assertEquals(Verdict.UNKNOWN_TYPE, SrmFrameValidator.check(nak, 0, nak.length));
        nak[HeaderFlyweight.TYPE_OFFSET] = (byte) (SrmFrameType.SESSION + 1);
        assertEquals(Verdict.UNKNOWN_TYPE, SrmFrameValidator.check(nak, 0, nak.length));
    }

    @Test
    void shouldRejectEachBrokenBodyRule() {
        byte[] request = SrmFrames.request(1, 2, 3, 4);
        assertEquals(Verdict.BAD_LENGTH, check(withLength(Arrays.copyOf(request, 29))));
        request[SrmRequestFlyweight.SEQNO_OFFSET] = (byte) 0x80;
        assertEquals(Verdict.BAD_FIELD, check(request));

        byte[] repair = SrmFrames.repair(1, 2, 3, 4);
        assertEquals(Verdict.BAD_LENGTH, check(withLength(Arrays.copyOf(repair, 27))));
        assertEquals(Verdict.OK, check(withLength(Arrays.copyOf(repair, 28))), "an empty payload is a payload");
        repair[SrmRepairFlyweight.SEQNO_OFFSET] = (byte) 0xFF;
        assertEquals(Verdict.BAD_FIELD, check(repair));

        byte[] session = SrmFrames.session(1, 2, 3, 4, 5);
        assertEquals(Verdict.BAD_LENGTH, check(withLength(Arrays.copyOf(session, session.length + 12))));
        assertEquals(Verdict.BAD_LENGTH, check(withLength(Arrays.copyOf(session, 27))));
        byte[] negativeEntry = session.clone();
        negativeEntry[SrmSessionFlyweight.ENTRIES_OFFSET + SrmSessionFlyweight.ENTRY_SEQNO_OFFSET] = (byte) 0x80;
        assertEquals(Verdict.BAD_FIELD, check(negativeEntry));
        byte[] belowNone = session.clone();
        Bytes.putLong(belowNone, SrmSessionFlyweight.HIGHEST_SENT_OFFSET, -2);
        assertEquals(Verdict.BAD_FIELD, check(belowNone));
        byte[] tooMany = SrmFrames.session(1, 2, 3);
        Bytes.putShort(tooMany, SrmSessionFlyweight.COUNT_OFFSET, SrmSessionFlyweight.MAX_ENTRIES + 1);
        assertEquals(Verdict.BAD_FIELD, check(tooMany));
    }

    @Test
    void shouldRejectBadHeadersThroughTheCommonChecks() {
        byte[] frame = SrmFrames.request(1, 2, 3, 4);
        assertEquals(Verdict.TOO_SHORT, SrmFrameValidator.check(frame, 0, 11));
        assertEquals(Verdict.TOO_SHORT, SrmFrameValidator.check(frame, 20, 28));
        assertEquals(Verdict.TOO_SHORT, SrmFrameValidator.check(null, 0, 28));
        assertEquals(Verdict.BAD_LENGTH, SrmFrameValidator.check(frame, 0, 27), "frame length must equal datagram");
        frame[0] = 0;
        assertEquals(Verdict.BAD_MAGIC, check(frame));
    }

    private static Verdict check(byte[] frame) {
        return SrmFrameValidator.check(frame, 0, frame.length);
    }

    private static byte[] withLength(byte[] frame) {
        Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, frame.length);
        return frame;
    }
}
