package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.pbcast.TestFrames.Run;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Round trips of pbcast's frames through their flyweights, and the validator's verdicts on malformed ones. */
class PbcastFramesTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void shouldRoundTripADigest() {
        byte[] frame = TestFrames.digest(3, 42, -7, Run.of(1, 0, 5), new Run(1, 9, 0xFFFF, true),
                Run.of(-2, Long.MAX_VALUE, 1));
        assertEquals(Verdict.OK, PbcastFrames.check(frame, 0, frame.length));
        DigestFlyweight d = new DigestFlyweight().wrap(frame, 0);
        assertEquals(PbcastFrameType.DIGEST, d.type());
        assertEquals(3, d.source());
        assertEquals(42, d.group());
        assertEquals(-7, d.round());
        assertEquals(3, d.entryCount());
        assertEquals(DigestFlyweight.lengthOf(3), d.frameLength());
        assertEquals(1, d.entryOrigin(0));
        assertEquals(4, d.entryLast(0));
        assertFalse(d.entryRetransmitted(0));
        assertEquals(9, d.entryFirst(1));
        assertEquals(0xFFFF, d.entryRun(1));
        assertTrue(d.entryRetransmitted(1));
        assertEquals(-2, d.entryOrigin(2));
        assertEquals(Long.MAX_VALUE, d.entryLast(2));
    }

    @Test
    void shouldLayOutADigestAsDrawn() {
        byte[] frame = TestFrames.digest(0x01020304, 0x0A0B0C0D, 5, new Run(6, 0x1122334455667788L, 3, true));
        assertEquals("5243" + "01" + "20" + "0028" + "0000" + "01020304" // header: magic, version, type 32, length 40
                + "0a0b0c0d" + "00000005" + "0001" + "0000"            // group, round, count, reserved
                + "00000006" + "1122334455667788" + "0003" + "0001",    // origin, first, count, flags R
                HEX.formatHex(frame));
    }

    @Test
    void shouldSplitNothingAndRefuseAnEntryBeyondTheLastThatFits() {
        byte[] frame = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
        DigestFlyweight d = new DigestFlyweight().wrap(frame, 0).start(1, 2, 3);
        for (int i = 0; i < DigestFlyweight.MAX_ENTRIES; i++) {
            d.add(i, i, 1, 0);
        }
        assertFalse(d.hasRoom());
        assertTrue(d.frameLength() <= HeaderFlyweight.MAX_FRAME_LENGTH);
        assertEquals(Verdict.OK, PbcastFrames.check(frame, 0, d.frameLength()));
        assertThrows(IllegalStateException.class, () -> d.add(0, 0, 1, 0));
    }

    @Test
    void shouldRoundTripSolicitationsInfosAndMcasts() {
        for (int type : new int[] {PbcastFrameType.REQUEST, PbcastFrameType.INFO, PbcastFrameType.MCAST}) {
            int argument = type == PbcastFrameType.MCAST ? 0 : -123;
            byte[] frame = TestFrames.solicit(type, 9, 4, 77, 1L << 40, argument);
            assertEquals(Verdict.OK, PbcastFrames.check(frame, 0, frame.length), PbcastFrameType.name(type));
            SolicitFlyweight s = new SolicitFlyweight().wrap(frame, 0);
            assertEquals(type, s.type());
            assertEquals(SolicitFlyweight.LENGTH, s.frameLength());
            assertEquals(9, s.source());
            assertEquals(4, s.origin());
            assertEquals(77, s.group());
            assertEquals(1L << 40, s.seqno());
            assertEquals(argument, s.argument());
        }
    }

    @Test
    void shouldRoundTripARetransmissionInTheDataLayout() {
        byte[] frame = TestFrames.retransmit(5, 2, 8, 31);
        assertEquals(Verdict.OK, PbcastFrames.check(frame, 0, frame.length));
        DataFlyweight d = new DataFlyweight().wrap(frame, 0);
        assertEquals(PbcastFrameType.RETRANSMIT, d.type());
        assertEquals(5, d.source());
        assertEquals(2, d.origin());
        assertEquals(31, d.seqno());
        assertArrayEquals(TestFrames.payload(2, 8, 31),
                Arrays.copyOfRange(frame, d.payloadOffset(), d.payloadOffset() + d.payloadLength()));
    }

    @Test
    void shouldRejectMalformedDigests() {
        byte[] valid = TestFrames.digest(1, 2, 3, Run.of(4, 10, 2), Run.of(4, 20, 1));
        assertEquals(Verdict.BAD_LENGTH, PbcastFrames.check(withLength(valid, 20), 0, 20), "shorter than the body");
        assertEquals(Verdict.BAD_FIELD, check(set16(valid, DigestFlyweight.COUNT_OFFSET, 91)), "count > max");
        assertEquals(Verdict.BAD_LENGTH, check(set16(valid, DigestFlyweight.COUNT_OFFSET, 3)), "count vs length");
        assertEquals(Verdict.BAD_FIELD, check(set16(valid, DigestFlyweight.RESERVED_OFFSET, 1)), "reserved");
        int entry1 = DigestFlyweight.ENTRIES_OFFSET + DigestFlyweight.ENTRY_LENGTH;
        assertEquals(Verdict.BAD_FIELD, check(set16(valid, entry1 + DigestFlyweight.ENTRY_COUNT_OFFSET, 0)), "run 0");
        assertEquals(Verdict.BAD_FIELD, check(set16(valid, entry1 + DigestFlyweight.ENTRY_FLAGS_OFFSET, 2)), "flag");
        assertEquals(Verdict.BAD_FIELD, check(set64(valid, entry1 + DigestFlyweight.ENTRY_FIRST_OFFSET, -1)),
                "negative first seqno");
        assertEquals(Verdict.OK, check(set64(valid, entry1 + DigestFlyweight.ENTRY_FIRST_OFFSET, Long.MAX_VALUE)),
                "a run of 1 may start at the largest seqno");
        assertEquals(Verdict.BAD_FIELD, check(set64(valid, DigestFlyweight.ENTRIES_OFFSET
                + DigestFlyweight.ENTRY_FIRST_OFFSET, Long.MAX_VALUE)), "last seqno overflows");
    }

    @Test
    void shouldRejectMalformedSolicitations() {
        byte[] request = TestFrames.solicit(PbcastFrameType.REQUEST, 1, 2, 3, 4, 5);
        byte[] longer = Arrays.copyOf(request, request.length + 1);
        Bytes.putShort(longer, HeaderFlyweight.FRAME_LENGTH_OFFSET, longer.length);
        assertEquals(Verdict.BAD_LENGTH, check(longer));
        assertEquals(Verdict.BAD_FIELD, check(set64(request, SolicitFlyweight.SEQNO_OFFSET, -5)));
        byte[] mcast = TestFrames.solicit(PbcastFrameType.MCAST, 1, 2, 3, 4, 0);
        assertEquals(Verdict.BAD_FIELD, check(set32(mcast, SolicitFlyweight.ARGUMENT_OFFSET, 1)), "mcast argument");
        byte[] retransmit = TestFrames.retransmit(1, 2, 3, 4);
        assertEquals(Verdict.BAD_FIELD, check(set64(retransmit, DataFlyweight.SEQNO_OFFSET, -1)));
    }

    @Test
    void shouldRejectFramesOfOtherProtocolsAndUnusedIds() {
        byte[] frame = TestFrames.solicit(PbcastFrameType.REQUEST, 1, 2, 3, 4, 5);
        for (int type : new int[] {FrameType.REPAIR, FrameType.NAK, FrameType.SRM_FIRST, PbcastFrameType.MCAST + 1,
            FrameType.PBCAST_LAST, 200}) {
            byte[] other = frame.clone();
            other[HeaderFlyweight.TYPE_OFFSET] = (byte) type;
            assertEquals(Verdict.UNKNOWN_TYPE, check(other), "type " + type);
        }
        byte[] badMagic = frame.clone();
        badMagic[0] = 0;
        assertEquals(Verdict.BAD_MAGIC, check(badMagic));
        assertEquals(Verdict.BAD_LENGTH, PbcastFrames.check(frame, 0, frame.length - 1), "datagram shorter");
        assertEquals(Verdict.TOO_SHORT, PbcastFrames.check(frame, 30, 10), "range outside the array");
    }

    @Test
    void shouldNameEveryFrameType() {
        assertEquals("PBCAST_DIGEST", PbcastFrameType.name(32));
        assertEquals("PBCAST_REQUEST", PbcastFrameType.name(33));
        assertEquals("PBCAST_RETRANSMIT", PbcastFrameType.name(34));
        assertEquals("PBCAST_INFO", PbcastFrameType.name(35));
        assertEquals("PBCAST_MCAST", PbcastFrameType.name(36));
        assertEquals("DATA", PbcastFrameType.name(FrameType.DATA));
        assertTrue(FrameType.isProtocolReserved(PbcastFrameType.DIGEST)
                && FrameType.isProtocolReserved(PbcastFrameType.MCAST));
    }

    private static Verdict check(byte[] frame) {
        return PbcastFrames.check(frame, 0, frame.length);
    }

    private static byte[] withLength(byte[] frame, int length) {
        byte[] copy = Arrays.copyOf(frame, length);
        Bytes.putShort(copy, HeaderFlyweight.FRAME_LENGTH_OFFSET, length);
        return copy;
    }

    private static byte[] set16(byte[] frame, int offset, int value) {
        byte[] copy = frame.clone();
        Bytes.putShort(copy, offset, value);
        return copy;
    }

    private static byte[] set32(byte[] frame, int offset, int value) {
        byte[] copy = frame.clone();
        Bytes.putInt(copy, offset, value);
        return copy;
    }

    private static byte[] set64(byte[] frame, int offset, long value) {
        byte[] copy = frame.clone();
        Bytes.putLong(copy, offset, value);
        return copy;
    }
}
