package io.ricochet.wire;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.FrameValidator.Verdict;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Covers every rejection path of {@link FrameValidator#check} and the {@link Verdict} it gives: too short, bad
 * magic, bad version, unknown type, frame length that disagrees with the datagram length or exceeds
 * {@link HeaderFlyweight#MAX_FRAME_LENGTH}, DATA/RETRANSMIT shorter than their header, negative sequence numbers,
 * NAK/GONE/SESSION and HEARTBEAT/HEARTBEAT_ACK of the wrong length, and the REPAIR rules (entry count
 * 1..{@link RepairFlyweight#MAX_ENTRIES}, XOR payload length equal to the longest entry, frame length equal to
 * 16 + 20 * count + payload length). Also checks that bad call arguments (null buffer, negative offset or length,
 * a window past the array end) are rejected without an exception. Each malformed fixture is a byte literal or a
 * valid frame mutated in one place, with a comment saying what is wrong with it.
 */
class FrameValidatorTest {
    /** A valid DATA frame: source 1, origin 1, group 2, seqno 3, payload {0xAA, 0xBB}. */
    private static final byte[] DATA_FRAME = {
        0x52, 0x43, 0x01, 0x01, 0x00, 0x1E, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
        (byte) 0xAA, (byte) 0xBB,
    };

    @Test
    void shouldAcceptValidFrameOfEveryType() {
        assertEquals(Verdict.OK, check(DATA_FRAME));
        assertEquals(Verdict.OK, check(data(FrameType.DATA, 0)));
        assertEquals(Verdict.OK, check(data(FrameType.RETRANSMIT, 100)));
        assertEquals(Verdict.OK, check(data(FrameType.DATA, DataFlyweight.MAX_PAYLOAD)));
        assertEquals(Verdict.OK, check(ref(FrameType.NAK)));
        assertEquals(Verdict.OK, check(ref(FrameType.GONE)));
        assertEquals(Verdict.OK, check(ref(FrameType.SESSION)));
        assertEquals(Verdict.OK, check(heartbeat(FrameType.HEARTBEAT)));
        assertEquals(Verdict.OK, check(heartbeat(FrameType.HEARTBEAT_ACK)));
        assertEquals(Verdict.OK, check(repair(10, 20, 5)));
        assertEquals(Verdict.OK, check(repair(0)));
        assertEquals(Verdict.OK, check(repair(new int[RepairFlyweight.MAX_ENTRIES])));
    }

    @Test
    void shouldRejectTooShort() {
        // Every prefix shorter than the 12-byte common header, even of a valid frame.
        for (int length = 0; length < HeaderFlyweight.HEADER_LENGTH; length++) {
            assertEquals(Verdict.TOO_SHORT, FrameValidator.check(DATA_FRAME, 0, length), "length " + length);
        }
        // An 11-byte datagram that is the first 11 bytes of a NAK header.
        byte[] elevenBytes = {0x52, 0x43, 0x01, 0x03, 0x00, 0x0B, 0x00, 0x00, 0x00, 0x00, 0x00};
        assertEquals(Verdict.TOO_SHORT, check(elevenBytes));
        assertEquals(Verdict.TOO_SHORT, check(new byte[0]));
    }

    @Test
    void shouldRejectBadMagic() {
        // Magic byte-swapped ('CR' instead of 'RC'): catches a little-endian writer.
        byte[] swapped = DATA_FRAME.clone();
        swapped[0] = 0x43;
        swapped[1] = 0x52;
        assertEquals(Verdict.BAD_MAGIC, check(swapped));
        // Only the second magic byte wrong.
        byte[] half = DATA_FRAME.clone();
        half[1] = 0x44;
        assertEquals(Verdict.BAD_MAGIC, check(half));
        // Twelve zero bytes.
        assertEquals(Verdict.BAD_MAGIC, check(new byte[HeaderFlyweight.HEADER_LENGTH]));
    }

    @Test
    void shouldRejectBadVersion() {
        // Version 0, 2 and 255 instead of 1; everything else valid.
        for (int version : new int[] {0, 2, 255}) {
            byte[] frame = DATA_FRAME.clone();
            frame[HeaderFlyweight.VERSION_OFFSET] = (byte) version;
            assertEquals(Verdict.BAD_VERSION, check(frame), "version " + version);
        }
    }

    @Test
    void shouldRejectUnknownType() {
        // Type ids outside 1..MAX (8); the rest of the frame is a valid DATA frame.
        for (int type : new int[] {0, FrameType.MAX + 1, 128, 255}) {
            byte[] frame = DATA_FRAME.clone();
            frame[HeaderFlyweight.TYPE_OFFSET] = (byte) type;
            assertEquals(Verdict.UNKNOWN_TYPE, check(frame), "type " + type);
        }
    }

    @Test
    void shouldRejectFrameLengthShorterThanDatagram() {
        // Frame length field says 29 but the datagram is 30 bytes (a trailing byte the frame does not account for).
        byte[] frame = DATA_FRAME.clone();
        frame[HeaderFlyweight.FRAME_LENGTH_OFFSET + 1] = 0x1D;
        assertEquals(Verdict.BAD_LENGTH, check(frame));
        // A valid 30-byte frame followed by one extra byte in the datagram.
        byte[] extended = Arrays.copyOf(DATA_FRAME, DATA_FRAME.length + 1);
        assertEquals(Verdict.BAD_LENGTH, check(extended));
        // Same for a NAK and a repair.
        assertEquals(Verdict.BAD_LENGTH, check(Arrays.copyOf(ref(FrameType.NAK), PacketRefFlyweight.NAK_LENGTH + 1)));
        byte[] repair = repair(4, 8);
        assertEquals(Verdict.BAD_LENGTH, check(Arrays.copyOf(repair, repair.length + 1)));
    }

    @Test
    void shouldRejectFrameLengthLongerThanDatagram() {
        // Frame length field says 31 but the datagram is only 30 bytes (the frame was truncated in flight).
        byte[] frame = DATA_FRAME.clone();
        frame[HeaderFlyweight.FRAME_LENGTH_OFFSET + 1] = 0x1F;
        assertEquals(Verdict.BAD_LENGTH, check(frame));
        // A valid frame with its last byte cut off.
        assertEquals(Verdict.BAD_LENGTH, FrameValidator.check(DATA_FRAME, 0, DATA_FRAME.length - 1));
        // Frame length 0x1E00 (the two length bytes swapped) on a 30-byte datagram.
        byte[] swapped = DATA_FRAME.clone();
        swapped[HeaderFlyweight.FRAME_LENGTH_OFFSET] = 0x1E;
        swapped[HeaderFlyweight.FRAME_LENGTH_OFFSET + 1] = 0x00;
        assertEquals(Verdict.BAD_LENGTH, check(swapped));
        // A repair truncated by one byte.
        byte[] repair = repair(4, 8);
        assertEquals(Verdict.BAD_LENGTH, FrameValidator.check(repair, 0, repair.length - 1));
    }

    @Test
    void shouldRejectFrameLongerThanMaxFrameLength() {
        // A DATA frame one byte over the limit, self-consistent (frame length = datagram length = 1473).
        byte[] tooLong = data(FrameType.DATA, DataFlyweight.MAX_PAYLOAD + 1);
        assertEquals(HeaderFlyweight.MAX_FRAME_LENGTH + 1, tooLong.length);
        assertEquals(Verdict.BAD_LENGTH, check(tooLong));
        // The largest 16-bit frame length, with a datagram that size.
        byte[] huge = data(FrameType.RETRANSMIT, 0xFFFF - DataFlyweight.DATA_HEADER_LENGTH);
        assertEquals(0xFFFF, huge.length);
        assertEquals(Verdict.BAD_LENGTH, check(huge));
        // A self-consistent repair of 1 entry whose payload makes the frame 1473 bytes.
        int payload = HeaderFlyweight.MAX_FRAME_LENGTH + 1 - RepairFlyweight.frameLength(1, 0);
        assertEquals(Verdict.BAD_LENGTH, check(repair(payload)));
        // Same repair one byte smaller is fine.
        assertEquals(Verdict.OK, check(repair(payload - 1)));
    }

    @Test
    void shouldRejectDataShorterThanItsHeader() {
        // DATA/RETRANSMIT cut to 12..27 bytes with the frame length field adjusted to match: header but no id.
        for (int type : new int[] {FrameType.DATA, FrameType.RETRANSMIT}) {
            for (int length = HeaderFlyweight.HEADER_LENGTH; length < DataFlyweight.DATA_HEADER_LENGTH; length++) {
                byte[] frame = Arrays.copyOf(data(type, 0), length);
                Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, length);
                assertEquals(Verdict.BAD_LENGTH, check(frame), FrameType.name(type) + " length " + length);
            }
        }
    }

    @Test
    void shouldRejectNegativeSeqno() {
        // DATA_FRAME with the top bit of the sequence number set.
        byte[] frame = DATA_FRAME.clone();
        frame[DataFlyweight.SEQNO_OFFSET] = (byte) 0x80;
        assertEquals(Verdict.BAD_FIELD, check(frame));
        // Seqno -1 in DATA, RETRANSMIT, NAK and GONE.
        for (int type : new int[] {FrameType.DATA, FrameType.RETRANSMIT}) {
            byte[] data = data(type, 5);
            Bytes.putLong(data, DataFlyweight.SEQNO_OFFSET, -1L);
            assertEquals(Verdict.BAD_FIELD, check(data), FrameType.name(type));
        }
        for (int type : new int[] {FrameType.NAK, FrameType.GONE, FrameType.SESSION}) {
            byte[] nak = ref(type);
            Bytes.putLong(nak, PacketRefFlyweight.SEQNO_OFFSET, Long.MIN_VALUE);
            assertEquals(Verdict.BAD_FIELD, check(nak), FrameType.name(type));
        }
        // HEARTBEAT and HEARTBEAT_ACK with the top bit of the sequence set (the send time may be anything).
        for (int type : new int[] {FrameType.HEARTBEAT, FrameType.HEARTBEAT_ACK}) {
            byte[] heartbeat = heartbeat(type);
            heartbeat[HeartbeatFlyweight.SEQUENCE_OFFSET] |= (byte) 0x80;
            assertEquals(Verdict.BAD_FIELD, check(heartbeat), FrameType.name(type));
            byte[] negativeTime = heartbeat(type);
            Bytes.putLong(negativeTime, HeartbeatFlyweight.SEND_TIME_OFFSET, Long.MIN_VALUE);
            assertEquals(Verdict.OK, check(negativeTime), FrameType.name(type) + " with a negative send time");
        }
        // A repair whose last entry names seqno Long.MIN_VALUE.
        byte[] repair = repair(3, 3, 3);
        Bytes.putLong(repair, entryAt(2) + RepairFlyweight.ENTRY_SEQNO_OFFSET, Long.MIN_VALUE);
        assertEquals(Verdict.BAD_FIELD, check(repair));
    }

    @Test
    void shouldRejectNakOfWrongLength() {
        for (int type : new int[] {FrameType.NAK, FrameType.GONE, FrameType.SESSION}) {
            int exact = PacketRefFlyweight.lengthOf(type);
            // Cut to 12, 20, 27 bytes and one short, frame length field adjusted to match: a NAK is never 28 bytes.
            for (int length : new int[] {HeaderFlyweight.HEADER_LENGTH, 20, PacketRefFlyweight.LENGTH - 1,
                    exact - 1}) {
                byte[] frame = Arrays.copyOf(ref(type), length);
                Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, length);
                assertEquals(Verdict.BAD_LENGTH, check(frame), FrameType.name(type) + " length " + length);
            }
            // Extended by one byte and to 600 bytes, frame length field adjusted to match: only a NAK may be
            // padded further (for a sender of larger frames, see PacketRefFlyweight.nakLength).
            for (int length : new int[] {exact + 1, 600}) {
                byte[] frame = Arrays.copyOf(ref(type), length);
                Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, length);
                assertEquals(type == FrameType.NAK ? Verdict.OK : Verdict.BAD_LENGTH, check(frame),
                        FrameType.name(type) + " length " + length);
            }
        }
    }

    @Test
    void aStableFrameHoldsOneToMaxEntriesOfNonNegativeSeqnosAndNothingElse() {
        byte[] frame = new byte[StreamListFlyweight.lengthOf(2, StreamListFlyweight.PROGRESS)];
        StreamListFlyweight st = new StreamListFlyweight().wrap(frame, 0);
        st.begin(8, 4);
        assertTrue(st.add(5, 6L, 9L));
        assertTrue(st.add(7, 0L, 0L));
        assertEquals(frame.length, st.finish());
        assertEquals(Verdict.OK, check(frame));
        assertEquals(StreamListFlyweight.PROGRESS, st.flags());
        assertEquals(6L, st.seqno(0));
        assertEquals(9L, st.progress(0));
        assertEquals(7, st.group(1));

        byte[] empty = new byte[StreamListFlyweight.lengthOf(0, StreamListFlyweight.PROGRESS)];
        new StreamListFlyweight().wrap(empty, 0).begin(8, 4);
        new StreamListFlyweight().wrap(empty, 0).finish();
        assertEquals(Verdict.BAD_LENGTH, check(empty), "no entry");
        byte[] longer = Arrays.copyOf(frame, frame.length + StreamListFlyweight.PROGRESS_ENTRY_LENGTH);
        Bytes.putShort(longer, HeaderFlyweight.FRAME_LENGTH_OFFSET, longer.length);
        assertEquals(Verdict.BAD_LENGTH, check(longer), "count 2, room for 3");
        byte[] negative = frame.clone();
        int secondEntry = StreamListFlyweight.ENTRIES_OFFSET + StreamListFlyweight.PROGRESS_ENTRY_LENGTH;
        Bytes.putLong(negative, secondEntry + 4, -1L);
        assertEquals(Verdict.BAD_FIELD, check(negative));
        byte[] behind = frame.clone();
        Bytes.putLong(behind, StreamListFlyweight.ENTRIES_OFFSET + 12, 5L);
        assertEquals(Verdict.BAD_FIELD, check(behind), "progress below the resolved seqno");
        byte[] unknownFlag = frame.clone();
        Bytes.putShort(unknownFlag, StreamListFlyweight.FLAGS_OFFSET, StreamListFlyweight.PROGRESS | 2);
        assertEquals(Verdict.BAD_FIELD, check(unknownFlag), "a flag this node does not know");
        byte[] full = new byte[StreamListFlyweight.lengthOf(StreamListFlyweight.MAX_PROGRESS_ENTRIES,
                StreamListFlyweight.PROGRESS)];
        StreamListFlyweight f = new StreamListFlyweight().wrap(full, 0);
        f.begin(8, 4);
        for (int i = 0; i < StreamListFlyweight.MAX_PROGRESS_ENTRIES; i++) {
            assertTrue(f.add(i, i, i + 1));
        }
        assertFalse(f.add(99, 99, 99), "a frame holds MAX_PROGRESS_ENTRIES");
        f.finish();
        assertEquals(Verdict.OK, check(full));
        assertTrue(full.length <= HeaderFlyweight.STANDARD_FRAME_LENGTH);
    }

    @Test
    void aSessionsFrameHoldsOneToMaxEntriesOfNonNegativeSeqnosWithoutProgress() {
        byte[] frame = new byte[StreamListFlyweight.lengthOf(2)];
        StreamListFlyweight st = new StreamListFlyweight().wrap(frame, 0);
        st.beginSessions(8);
        assertTrue(st.add(5, 6L));
        assertTrue(st.add(7, 0L));
        assertEquals(frame.length, st.finish());
        assertEquals(Verdict.OK, check(frame));
        assertEquals(FrameType.SESSIONS, st.type());
        assertEquals(8, st.origin(), "the announcer's own streams");
        assertEquals(List.of(5, 7), List.of(st.group(0), st.group(1)));
        assertEquals(6L, st.seqno(0));

        byte[] withProgress = frame.clone();
        Bytes.putShort(withProgress, StreamListFlyweight.FLAGS_OFFSET, StreamListFlyweight.PROGRESS);
        assertEquals(Verdict.BAD_FIELD, check(withProgress), "progress is a STABLE's only");
        byte[] negative = frame.clone();
        Bytes.putLong(negative, StreamListFlyweight.ENTRIES_OFFSET + StreamListFlyweight.ENTRY_LENGTH + 4, -1L);
        assertEquals(Verdict.BAD_FIELD, check(negative));
        byte[] full = new byte[StreamListFlyweight.lengthOf(StreamListFlyweight.MAX_ENTRIES)];
        StreamListFlyweight f = new StreamListFlyweight().wrap(full, 0);
        f.beginSessions(8);
        for (int i = 0; i < StreamListFlyweight.MAX_ENTRIES; i++) {
            assertTrue(f.add(i, i));
        }
        assertFalse(f.add(99, 99), "a standard frame holds no more");
        assertEquals(full.length, f.finish());
        assertEquals(Verdict.OK, check(full));
        assertTrue(full.length <= HeaderFlyweight.STANDARD_FRAME_LENGTH);
    }

    @Test
    void aStableFrameWithoutProgressHasTwelveByteEntriesAndReadsItsSeqnoAsProgress() {
        byte[] frame = new byte[StreamListFlyweight.lengthOf(2)];
        StreamListFlyweight st = new StreamListFlyweight().wrap(frame, 0);
        st.begin(8, 4);
        Bytes.putShort(frame, StreamListFlyweight.FLAGS_OFFSET, 0);
        Bytes.putShort(frame, StreamListFlyweight.COUNT_OFFSET, 2);
        Bytes.putInt(frame, StreamListFlyweight.ENTRIES_OFFSET, 5);
        Bytes.putLong(frame, StreamListFlyweight.ENTRIES_OFFSET + 4, 6L);
        Bytes.putInt(frame, StreamListFlyweight.ENTRIES_OFFSET + StreamListFlyweight.ENTRY_LENGTH, 7);
        Bytes.putLong(frame, StreamListFlyweight.ENTRIES_OFFSET + StreamListFlyweight.ENTRY_LENGTH + 4, 3L);
        assertEquals(frame.length, st.finish());
        assertEquals(Verdict.OK, check(frame));
        assertEquals(7, st.group(1));
        assertEquals(3L, st.seqno(1));
        assertEquals(3L, st.progress(1), "no progress field: the resolved seqno");
    }

    @Test
    void aNakIsPaddedToAThirdOfTheLargestAnswer() {
        assertEquals(PacketRefFlyweight.NAK_LENGTH,
                PacketRefFlyweight.nakLength(HeaderFlyweight.STANDARD_FRAME_LENGTH));
        int jumbo = HeaderFlyweight.frameLimit(9000, 0);
        int nak = PacketRefFlyweight.nakLength(jumbo);
        assertTrue(3 * nak >= jumbo && 3 * (nak - 1) < jumbo, "NAK of " + nak + " for answers of " + jumbo);
        byte[] frame = new byte[nak];
        assertEquals(nak, new PacketRefFlyweight().wrap(frame, 0).write(FrameType.NAK, 8, 4, 5, 6L, nak));
        assertEquals(Verdict.OK, check(frame));
        assertThrows(IllegalArgumentException.class, () -> new PacketRefFlyweight().wrap(new byte[600], 0)
                .write(FrameType.GONE, 8, 4, 5, 6L, 600));
    }

    @Test
    void shouldRejectHeartbeatOfWrongLength() {
        for (int type : new int[] {FrameType.HEARTBEAT, FrameType.HEARTBEAT_ACK}) {
            // Cut to 12, 20 (no send time) and 27 bytes, or extended to 29, 36 and 100: frame length adjusted.
            int[] lengths = {HeaderFlyweight.HEADER_LENGTH, 20, HeartbeatFlyweight.LENGTH - 1,
                HeartbeatFlyweight.LENGTH + 1, 36, 100};
            for (int length : lengths) {
                byte[] frame = Arrays.copyOf(heartbeat(type), length);
                Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, length);
                assertEquals(Verdict.BAD_LENGTH, check(frame), FrameType.name(type) + " length " + length);
            }
            // A valid heartbeat in a datagram one byte longer than its frame length says.
            byte[] trailing = Arrays.copyOf(heartbeat(type), HeartbeatFlyweight.LENGTH + 1);
            assertEquals(Verdict.BAD_LENGTH, check(trailing), FrameType.name(type) + " with a trailing byte");
        }
    }

    @Test
    void shouldRejectRepairWithCountZero() {
        // Header plus count 0 and payload length 0: a 16-byte repair naming nothing.
        byte[] frame = {
            0x52, 0x43, 0x01, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
            0x00, 0x00, 0x00, 0x00,
        };
        assertEquals(Verdict.BAD_FIELD, check(frame));
        // A valid one-entry repair with its count byte zeroed.
        byte[] zeroed = repair(4);
        zeroed[RepairFlyweight.COUNT_OFFSET] = 0;
        assertEquals(Verdict.BAD_FIELD, check(zeroed));
    }

    @Test
    void shouldRejectRepairWithTooManyEntries() {
        // A self-consistent repair of one entry more than MAX_ENTRIES, frame length matching.
        byte[] tooMany = repair(new int[RepairFlyweight.MAX_ENTRIES + 1]);
        assertEquals(RepairFlyweight.frameLength(RepairFlyweight.MAX_ENTRIES + 1, 0), tooMany.length);
        assertEquals(Verdict.BAD_FIELD, check(tooMany));
        // Count byte 255 on a valid one-entry repair.
        byte[] many = repair(4);
        many[RepairFlyweight.COUNT_OFFSET] = (byte) 255;
        assertEquals(Verdict.BAD_FIELD, check(many));
    }

    @Test
    void shouldRejectRepairWhosePayloadLengthIsNotTheLongestEntry() {
        // Entries of 3 and 5 bytes, XOR payload length 6 and the frame length grown to match: too long.
        byte[] longer = repairWithPayloadLength(6, 3, 5);
        assertEquals(Verdict.BAD_FIELD, check(longer));
        // Entries of 3 and 5 bytes, XOR payload length 4 and the frame length shrunk to match: too short.
        byte[] shorter = repairWithPayloadLength(4, 3, 5);
        assertEquals(Verdict.BAD_FIELD, check(shorter));
        // A valid repair where one entry length is changed from 5 to 9 (payload length stays 5).
        byte[] entryGrown = repair(3, 5);
        Bytes.putShort(entryGrown, entryAt(1) + RepairFlyweight.ENTRY_LENGTH_OFFSET, 9);
        assertEquals(Verdict.BAD_FIELD, check(entryGrown));
        // A valid repair where the longest entry's length is changed from 5 to 4 (no entry is 5 long now).
        byte[] entryShrunk = repair(3, 5);
        Bytes.putShort(entryShrunk, entryAt(1) + RepairFlyweight.ENTRY_LENGTH_OFFSET, 4);
        assertEquals(Verdict.BAD_FIELD, check(entryShrunk));
    }

    @Test
    void shouldAcceptSealedRepairsAndRejectSealsLongerThanTheMaximum() {
        for (int sealLength : new int[] {1, 25, RepairFlyweight.MAX_SEAL_LENGTH, RepairFlyweight.MAX_SEAL_LENGTH + 1}) {
            byte[] frame = new byte[RepairFlyweight.frameLength(3, 7, sealLength)];
            RepairFlyweight fw = new RepairFlyweight().wrap(frame, 0).writeStart(8, 3, 7, sealLength);
            for (int i = 0; i < 3; i++) {
                fw.entry(i, 4, 5, 100L + i, 7);
            }
            Verdict expected = sealLength <= RepairFlyweight.MAX_SEAL_LENGTH ? Verdict.OK : Verdict.BAD_FIELD;
            assertEquals(expected, check(frame), "seal length " + sealLength);
        }
        // A valid unsealed repair whose seal length byte says 1: the entries no longer add up to the frame.
        byte[] claimed = repair(4, 4);
        claimed[RepairFlyweight.SEAL_LENGTH_OFFSET] = 1;
        assertEquals(Verdict.BAD_LENGTH, check(claimed));
    }

    @Test
    void shouldRejectRepairWhoseFrameLengthDoesNotMatchCountAndPayload() {
        // A valid 3-entry repair whose count byte says 2: 20 bytes unaccounted for.
        byte[] countLow = repair(4, 4, 4);
        countLow[RepairFlyweight.COUNT_OFFSET] = 2;
        assertEquals(Verdict.BAD_LENGTH, check(countLow));
        // A valid 3-entry repair whose count byte says 4: the frame is 20 bytes short.
        byte[] countHigh = repair(4, 4, 4);
        countHigh[RepairFlyweight.COUNT_OFFSET] = 4;
        assertEquals(Verdict.BAD_LENGTH, check(countHigh));
        // A valid repair whose XOR payload length field is one more than what the frame holds.
        byte[] payloadHigh = repair(4, 7);
        Bytes.putShort(payloadHigh, RepairFlyweight.PAYLOAD_LENGTH_OFFSET, 8);
        assertEquals(Verdict.BAD_LENGTH, check(payloadHigh));
        // A valid repair with one extra byte appended and the frame length field grown to match.
        byte[] grown = Arrays.copyOf(repair(4, 7), RepairFlyweight.frameLength(2, 7) + 1);
        Bytes.putShort(grown, HeaderFlyweight.FRAME_LENGTH_OFFSET, grown.length);
        assertEquals(Verdict.BAD_LENGTH, check(grown));
        // A repair cut to 12..15 bytes (no room for count and payload length), frame length adjusted to match.
        for (int length = HeaderFlyweight.HEADER_LENGTH; length < RepairFlyweight.ENTRIES_OFFSET; length++) {
            byte[] cut = Arrays.copyOf(repair(4), length);
            Bytes.putShort(cut, HeaderFlyweight.FRAME_LENGTH_OFFSET, length);
            assertEquals(Verdict.BAD_LENGTH, check(cut), "length " + length);
        }
    }

    @Test
    void shouldRejectBadArgumentsWithoutThrowing() {
        byte[] padded = Arrays.copyOf(DATA_FRAME, DATA_FRAME.length + 4);
        assertRejectedQuietly(null, 0, 30);
        assertRejectedQuietly(null, 0, 0);
        assertRejectedQuietly(padded, -1, 30);
        assertRejectedQuietly(padded, Integer.MIN_VALUE, 30);
        assertRejectedQuietly(padded, 0, -1);
        assertRejectedQuietly(padded, 0, Integer.MIN_VALUE);
        // Window runs past the array end: one byte past, and offset past the end.
        assertRejectedQuietly(DATA_FRAME, 1, DATA_FRAME.length);
        assertRejectedQuietly(DATA_FRAME, 0, DATA_FRAME.length + 1);
        assertRejectedQuietly(DATA_FRAME, DATA_FRAME.length, 1);
        assertRejectedQuietly(DATA_FRAME, DATA_FRAME.length + 1, 0);
        // Values chosen so that offset + length overflows int.
        assertRejectedQuietly(padded, Integer.MAX_VALUE, 30);
        assertRejectedQuietly(padded, 4, Integer.MAX_VALUE);
        assertRejectedQuietly(padded, Integer.MAX_VALUE, Integer.MAX_VALUE);
        // Zero-length window at the very end: in bounds, but too short.
        assertRejectedQuietly(DATA_FRAME, DATA_FRAME.length, 0);
    }

    @Test
    void shouldIgnoreBytesOutsideTheWindow() {
        // A valid frame between garbage: the garbage does not matter, in either position.
        byte[] padded = new byte[7 + DATA_FRAME.length + 9];
        Arrays.fill(padded, (byte) 0xFF);
        System.arraycopy(DATA_FRAME, 0, padded, 7, DATA_FRAME.length);
        assertEquals(Verdict.OK, FrameValidator.check(padded, 7, DATA_FRAME.length));
        byte[] atEnd = Arrays.copyOfRange(padded, 0, 7 + DATA_FRAME.length);
        assertEquals(Verdict.OK, FrameValidator.check(atEnd, 7, DATA_FRAME.length));
    }

    // ---- fixtures ----

    private static Verdict check(byte[] frame) {
        return FrameValidator.check(frame, 0, frame.length);
    }

    private static void assertRejectedQuietly(byte[] buffer, int offset, int length) {
        String where = "offset=" + offset + " length=" + length;
        Verdict verdict = assertDoesNotThrow(() -> FrameValidator.check(buffer, offset, length), where);
        assertNotEquals(Verdict.OK, verdict, where);
        assertFalse(assertDoesNotThrow(() -> FrameValidator.isValid(buffer, offset, length), where), where);
    }

    /** A valid DATA or RETRANSMIT frame with a payload of {@code payloadLength} bytes, in an exact-size array. */
    private static byte[] data(int type, int payloadLength) {
        byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + payloadLength];
        byte[] payload = new byte[payloadLength];
        Arrays.fill(payload, (byte) 0x33);
        int len = new DataFlyweight().wrap(frame, 0).write(type, 4, 4, 5, 6L, payload, 0, payloadLength);
        assertEquals(frame.length, len);
        return frame;
    }

    /** A valid NAK or GONE frame in an exact-size array. */
    private static byte[] ref(int type) {
        byte[] frame = new byte[PacketRefFlyweight.lengthOf(type)];
        new PacketRefFlyweight().wrap(frame, 0).write(type, 8, 4, 5, 6L);
        return frame;
    }

    /** A valid HEARTBEAT or HEARTBEAT_ACK frame in an exact-size array. */
    private static byte[] heartbeat(int type) {
        byte[] frame = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(frame, 0).write(type, 8, 9L, 10L);
        return frame;
    }

    /** A valid repair over entries of the given lengths (payload bytes arbitrary), in an exact-size array. */
    private static byte[] repair(int... entryLengths) {
        int longest = Arrays.stream(entryLengths).max().orElse(0);
        return repairWithPayloadLength(longest, entryLengths);
    }

    /** A repair whose XOR payload length field and frame length are {@code payloadLength}, whatever the entries. */
    private static byte[] repairWithPayloadLength(int payloadLength, int... entryLengths) {
        int count = entryLengths.length;
        byte[] frame = new byte[RepairFlyweight.frameLength(count, payloadLength)];
        RepairFlyweight fw = new RepairFlyweight().wrap(frame, 0);
        fw.writeStart(8, count, payloadLength);
        for (int i = 0; i < count; i++) {
            fw.entry(i, 4, 5, 100L + i, entryLengths[i]);
        }
        Arrays.fill(frame, fw.payloadOffset(), frame.length, (byte) 0x77);
        assertEquals(frame.length, fw.frameLength());
        return frame;
    }

    private static int entryAt(int i) {
        return RepairFlyweight.ENTRIES_OFFSET + i * RepairFlyweight.ENTRY_LENGTH;
    }
}
