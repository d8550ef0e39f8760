package io.ricochet.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Covers writing and reading every frame type with the {@code io.ricochet.wire} flyweights: DATA and RETRANSMIT
 * ({@link DataFlyweight}), NAK, GONE and SESSION ({@link PacketRefFlyweight}), REPAIR ({@link RepairFlyweight}) and
 * HEARTBEAT and HEARTBEAT_ACK ({@link HeartbeatFlyweight}, including the helper that answers a heartbeat). Each
 * frame is written at a non-zero offset inside a larger, pre-filled array; the test checks that
 * {@link FrameValidator#check} accepts exactly {@code [offset, offset + frameLength)}, that every field reads back
 * as written, and that no byte outside the frame was touched. Payload sizes 0, 1, 7, 1024 and
 * {@link DataFlyweight#MAX_PAYLOAD}, repairs of 1..{@link RepairFlyweight#MAX_ENTRIES} entries, the r = 8 sizing
 * bound, extreme sequence numbers and negative (opaque) ids are all exercised. Hand-written byte fixtures pin the
 * big-endian layout of a DATA, a NAK, a REPAIR and a HEARTBEAT frame.
 */
class FlyweightRoundTripTest {
    /** Value every byte of a fresh buffer holds, so stray writes outside a frame are visible. */
    private static final byte FILL = (byte) 0x5A;
    private static final int OFFSET = 37;
    private static final int SLACK = 29;

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 1024, DataFlyweight.MAX_PAYLOAD})
    void shouldRoundTripDataAndRetransmit(int payloadLength) {
        for (int type : new int[] {FrameType.DATA, FrameType.RETRANSMIT}) {
            byte[] payload = pattern(payloadLength, type);
            byte[] buf = filled(OFFSET + DataFlyweight.DATA_HEADER_LENGTH + payloadLength + SLACK);
            DataFlyweight fw = new DataFlyweight().wrap(buf, OFFSET);

            int len = fw.write(type, 11, 12, 13, 14L, payload, 0, payloadLength);

            assertEquals(DataFlyweight.DATA_HEADER_LENGTH + payloadLength, len);
            assertValidExactly(buf, OFFSET, len);
            assertUntouchedOutside(buf, OFFSET, len);
            DataFlyweight r = new DataFlyweight().wrap(buf, OFFSET);
            assertHeader(r, type, len, 11);
            assertEquals(12, r.origin());
            assertEquals(13, r.group());
            assertEquals(14L, r.seqno());
            assertEquals(OFFSET + DataFlyweight.PAYLOAD_OFFSET, r.payloadOffset());
            assertEquals(payloadLength, r.payloadLength());
            assertArrayEquals(payload, Arrays.copyOfRange(buf, r.payloadOffset(), r.payloadOffset() + payloadLength));
        }
    }

    @Test
    void shouldCopyPayloadFromSourceOffset() {
        byte[] source = pattern(100, 3);
        byte[] buf = filled(OFFSET + 100 + SLACK);
        DataFlyweight fw = new DataFlyweight().wrap(buf, OFFSET);

        int len = fw.write(FrameType.DATA, 1, 1, 2, 3L, source, 40, 50);

        assertEquals(DataFlyweight.DATA_HEADER_LENGTH + 50, len);
        assertValidExactly(buf, OFFSET, len);
        assertArrayEquals(Arrays.copyOfRange(source, 40, 90),
                Arrays.copyOfRange(buf, fw.payloadOffset(), fw.payloadOffset() + fw.payloadLength()));
    }

    @Test
    void shouldRoundTripNakAndGone() {
        for (int type : new int[] {FrameType.NAK, FrameType.GONE, FrameType.SESSION}) {
            byte[] buf = filled(OFFSET + PacketRefFlyweight.NAK_LENGTH + SLACK);
            PacketRefFlyweight fw = new PacketRefFlyweight().wrap(buf, OFFSET);

            int len = fw.write(type, 21, 22, 23, 24L);

            assertEquals(PacketRefFlyweight.lengthOf(type), len);
            assertEquals(type == FrameType.NAK ? 496 : 28, len);
            assertValidExactly(buf, OFFSET, len);
            assertUntouchedOutside(buf, OFFSET, len);
            PacketRefFlyweight r = new PacketRefFlyweight().wrap(buf, OFFSET);
            assertHeader(r, type, len, 21);
            assertEquals(22, r.origin());
            assertEquals(23, r.group());
            assertEquals(24L, r.seqno());
        }
    }

    @Test
    void shouldRoundTripHeartbeatAndAck() {
        long[] sendTimes = {0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L};
        for (int type : new int[] {FrameType.HEARTBEAT, FrameType.HEARTBEAT_ACK}) {
            for (long sendTimeNs : sendTimes) {
                byte[] buf = filled(OFFSET + HeartbeatFlyweight.LENGTH + SLACK);
                HeartbeatFlyweight fw = new HeartbeatFlyweight().wrap(buf, OFFSET);

                int len = fw.write(type, -31, 32L, sendTimeNs);

                assertEquals(HeartbeatFlyweight.LENGTH, len);
                assertEquals(28, len);
                assertValidExactly(buf, OFFSET, len);
                assertUntouchedOutside(buf, OFFSET, len);
                HeartbeatFlyweight r = new HeartbeatFlyweight().wrap(buf, OFFSET);
                assertHeader(r, type, len, -31);
                assertEquals(32L, r.sequence());
                assertEquals(sendTimeNs, r.sendTimeNs());
            }
        }
    }

    @Test
    void shouldAnswerHeartbeatWithAckEchoingSequenceAndSendTime() {
        for (long sequence : new long[] {0L, 1L, 77L, Long.MAX_VALUE}) {
            byte[] ping = filled(OFFSET + HeartbeatFlyweight.LENGTH + SLACK);
            new HeartbeatFlyweight().wrap(ping, OFFSET).write(FrameType.HEARTBEAT, 500, sequence, -123_456_789L);
            byte[] pingBefore = ping.clone();
            byte[] ack = filled(OFFSET + 3 + HeartbeatFlyweight.LENGTH + SLACK);

            int len = HeartbeatFlyweight.ackInto(ping, OFFSET, HeartbeatFlyweight.LENGTH, 42, ack, OFFSET + 3);

            assertEquals(HeartbeatFlyweight.LENGTH, len);
            assertArrayEquals(pingBefore, ping, "the heartbeat is only read");
            assertEquals(FrameValidator.Verdict.OK, FrameValidator.check(ack, OFFSET + 3, len));
            HeartbeatFlyweight r = new HeartbeatFlyweight().wrap(ack, OFFSET + 3);
            assertEquals(FrameType.HEARTBEAT_ACK, r.type());
            assertEquals(42, r.source(), "the answering node's id");
            assertEquals(0, r.flags());
            assertEquals(sequence, r.sequence());
            assertEquals(-123_456_789L, r.sendTimeNs());
            for (int i = 0; i < ack.length; i++) {
                if (i < OFFSET + 3 || i >= OFFSET + 3 + len) {
                    assertEquals(FILL, ack[i], "byte " + i + " outside the ack was written");
                }
            }
        }
    }

    @Test
    void shouldAnswerHeartbeatInPlace() {
        byte[] buf = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(buf, 0).write(FrameType.HEARTBEAT, 1, 9L, 10L);

        int len = HeartbeatFlyweight.ackInto(buf, 0, buf.length, 2, buf, 0);

        assertEquals(HeartbeatFlyweight.LENGTH, len);
        HeartbeatFlyweight r = new HeartbeatFlyweight().wrap(buf, 0);
        assertEquals(FrameType.HEARTBEAT_ACK, r.type());
        assertEquals(2, r.source());
        assertEquals(9L, r.sequence());
        assertEquals(10L, r.sendTimeNs());
    }

    @Test
    void shouldNotAnswerAnythingButAValidHeartbeat() {
        byte[] ackFrame = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(ackFrame, 0).write(FrameType.HEARTBEAT_ACK, 1, 9L, 10L);
        byte[] nak = new byte[PacketRefFlyweight.NAK_LENGTH];
        new PacketRefFlyweight().wrap(nak, 0).write(FrameType.NAK, 1, 2, 3, 4L);
        byte[] negative = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(negative, 0).write(FrameType.HEARTBEAT, 1, -1L, 10L);
        byte[] valid = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(valid, 0).write(FrameType.HEARTBEAT, 1, 9L, 10L);
        byte[][] refused = {ackFrame, nak, negative, new byte[HeartbeatFlyweight.LENGTH], Arrays.copyOf(valid, 27)};
        for (byte[] frame : refused) {
            byte[] ack = filled(HeartbeatFlyweight.LENGTH);

            assertEquals(0, HeartbeatFlyweight.ackInto(frame, 0, frame.length, 2, ack, 0));

            assertArrayEquals(filled(HeartbeatFlyweight.LENGTH), ack, "nothing written for a refused frame");
        }
        assertEquals(0, HeartbeatFlyweight.ackInto(null, 0, 28, 2, new byte[28], 0));
        assertEquals(0, HeartbeatFlyweight.ackInto(valid, 1, valid.length, 2, new byte[28], 0), "window past end");
    }

    @Test
    void shouldRefuseAckBufferWithoutRoom() {
        byte[] valid = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(valid, 0).write(FrameType.HEARTBEAT, 1, 9L, 10L);
        for (int[] room : new int[][] {{27, 0}, {40, 13}, {40, -1}}) {
            byte[] ack = new byte[room[0]];
            int at = room[1];
            assertThrows(IllegalArgumentException.class, () -> HeartbeatFlyweight.ackInto(valid, 0, 28, 2, ack, at),
                    "array " + room[0] + " offset " + at);
        }
        assertThrows(IllegalArgumentException.class, () -> HeartbeatFlyweight.ackInto(valid, 0, 28, 2, null, 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 1024})
    void shouldRoundTripRepairOfMixedLengths(int longest) {
        // Three entries: the longest, one about half as long and an empty one (still a valid packet to name).
        byte[][] payloads = {pattern(longest / 2, 1), pattern(longest, 2), new byte[0]};
        assertRepairRoundTrip(payloads, 5);
    }

    @Test
    void shouldRoundTripRepairOfOneEntryWithLargestPayload() {
        int largest = HeaderFlyweight.STANDARD_FRAME_LENGTH - RepairFlyweight.frameLength(1, 0);
        int len = assertRepairRoundTrip(new byte[][] {pattern(largest, 9)}, 6);
        assertEquals(HeaderFlyweight.STANDARD_FRAME_LENGTH, len);
    }

    @Test
    void shouldFitRepairOfEightKilobytePayloadsInOneDatagram() {
        byte[][] payloads = new byte[8][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = pattern(1024, i);
        }

        int len = assertRepairRoundTrip(payloads, 7);

        assertEquals(1200, len, "16 + 8 * 20 + 1024");
        assertEquals(1200, RepairFlyweight.frameLength(8, 1024));
        assertTrue(len <= HeaderFlyweight.STANDARD_FRAME_LENGTH, "fits one datagram under a 1500-byte MTU");
        assertTrue(HeaderFlyweight.STANDARD_FRAME_LENGTH <= 1500 - 20 - 8, "IPv4 + UDP headers fit under the MTU");
    }

    @Test
    void shouldRoundTripRepairOfMaxEntries() {
        byte[][] payloads = new byte[RepairFlyweight.MAX_ENTRIES][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = pattern(i * 64 + 64, i);
        }
        assertRepairRoundTrip(payloads, 8);
    }

    @Test
    void shouldRoundTripRepairOfMaxEntriesWithLargestPayload() {
        int largest = HeaderFlyweight.STANDARD_FRAME_LENGTH
                - RepairFlyweight.frameLength(RepairFlyweight.MAX_ENTRIES, 0);
        byte[][] payloads = new byte[RepairFlyweight.MAX_ENTRIES][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = pattern(largest - i, i);
        }

        int len = assertRepairRoundTrip(payloads, 9);

        assertEquals(HeaderFlyweight.STANDARD_FRAME_LENGTH, len);
    }

    @Test
    void shouldRoundTripExtremeSeqnos() {
        long[] seqnos = {0L, 1L, Integer.MAX_VALUE, 1L << 32, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        for (long seqno : seqnos) {
            byte[] buf = filled(OFFSET + PacketRefFlyweight.NAK_LENGTH + SLACK);
            DataFlyweight data = new DataFlyweight().wrap(buf, OFFSET);
            int len = data.write(FrameType.DATA, 1, 1, 1, seqno, new byte[] {1, 2}, 0, 2);
            assertValidExactly(buf, OFFSET, len);
            assertEquals(seqno, data.seqno());

            PacketRefFlyweight ref = new PacketRefFlyweight().wrap(buf, OFFSET);
            len = ref.write(FrameType.NAK, 1, 1, 1, seqno);
            assertValidExactly(buf, OFFSET, len);
            assertEquals(seqno, ref.seqno());

            RepairFlyweight repair = new RepairFlyweight().wrap(buf, OFFSET);
            repair.writeStart(1, 1, 0).entry(0, 1, 1, seqno, 0);
            assertValidExactly(buf, OFFSET, repair.frameLength());
            assertEquals(seqno, repair.entrySeqno(0));
        }
    }

    @Test
    void shouldRoundTripNegativeIds() {
        int[] ids = {-1, Integer.MIN_VALUE, -123456789, Integer.MAX_VALUE};
        for (int id : ids) {
            int other = ~id;
            byte[] buf = filled(OFFSET + 128 + SLACK);

            DataFlyweight data = new DataFlyweight().wrap(buf, OFFSET);
            int len = data.write(FrameType.RETRANSMIT, id, other, id, 5L, new byte[3], 0, 3);
            assertValidExactly(buf, OFFSET, len);
            assertEquals(id, data.source());
            assertEquals(other, data.origin());
            assertEquals(id, data.group());

            PacketRefFlyweight ref = new PacketRefFlyweight().wrap(buf, OFFSET);
            len = ref.write(FrameType.GONE, other, id, other, 5L);
            assertValidExactly(buf, OFFSET, len);
            assertEquals(other, ref.source());
            assertEquals(id, ref.origin());
            assertEquals(other, ref.group());

            RepairFlyweight repair = new RepairFlyweight().wrap(buf, OFFSET);
            repair.writeStart(id, 2, 0).entry(0, id, other, 5L, 0).entry(1, other, id, 6L, 0);
            assertValidExactly(buf, OFFSET, repair.frameLength());
            assertEquals(id, repair.source());
            assertEquals(id, repair.entryOrigin(0));
            assertEquals(other, repair.entryGroup(0));
            assertEquals(other, repair.entryOrigin(1));
            assertEquals(id, repair.entryGroup(1));
        }
    }

    @Test
    void shouldWriteDataFrameInExactByteLayout() {
        byte[] expected = {
            0x52, 0x43,                                     // magic 'RC'
            0x01,                                           // version 1
            0x01,                                           // type DATA
            0x00, 0x1F,                                     // frame length 31 = 28 + 3
            0x00, 0x00,                                     // flags
            0x0A, 0x0B, 0x0C, 0x0D,                         // source node id
            0x0A, 0x0B, 0x0C, 0x0D,                         // original sender
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE, // group -2
            0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // sequence number
            (byte) 0xDE, (byte) 0xAD, (byte) 0xBE,          // payload
        };
        byte[] buf = filled(OFFSET + expected.length + SLACK);

        int len = new DataFlyweight().wrap(buf, OFFSET).write(FrameType.DATA, 0x0A0B0C0D, 0x0A0B0C0D, -2,
                0x0102030405060708L, new byte[] {(byte) 0xDE, (byte) 0xAD, (byte) 0xBE}, 0, 3);

        assertEquals(expected.length, len);
        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET, OFFSET + len));
        assertValidExactly(buf, OFFSET, len);
        // The fixture itself, at offset 0 of an exact-size array, is a valid frame.
        assertEquals(FrameValidator.Verdict.OK, FrameValidator.check(expected, 0, expected.length));
    }

    @Test
    void shouldWriteFrameLengthHighByteFirst() {
        byte[] buf = new byte[DataFlyweight.DATA_HEADER_LENGTH + 1024];

        new DataFlyweight().wrap(buf, 0).write(FrameType.DATA, 1, 1, 1, 0L, new byte[1024], 0, 1024);

        // 28 + 1024 = 1052 = 0x041C
        assertEquals(0x04, buf[HeaderFlyweight.FRAME_LENGTH_OFFSET]);
        assertEquals(0x1C, buf[HeaderFlyweight.FRAME_LENGTH_OFFSET + 1]);
    }

    @Test
    void shouldWriteNakFrameInExactByteLayout() {
        byte[] expected = Arrays.copyOf(new byte[] {      // then zero padding up to 496 bytes
            0x52, 0x43, 0x01,                               // magic, version
            0x03,                                           // type NAK
            0x01, (byte) 0xF0,                              // frame length 496
            0x00, 0x00,                                     // flags
            0x00, 0x00, 0x00, 0x02,                         // source (the node asking)
            0x00, 0x00, 0x00, 0x01,                         // original sender
            0x00, 0x00, 0x01, 0x00,                         // group 256
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2A, // sequence number 42
        }, 496);
        byte[] buf = filled(OFFSET + expected.length + SLACK);

        int len = new PacketRefFlyweight().wrap(buf, OFFSET).write(FrameType.NAK, 2, 1, 256, 42L);

        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET, OFFSET + len));
    }

    @Test
    void shouldWriteSessionsFrameInExactByteLayout() {
        byte[] expected = {
            0x52, 0x43, 0x01,                               // magic, version
            0x0E,                                           // type SESSIONS
            0x00, 0x2C,                                     // frame length 44
            0x00, 0x00,                                     // flags
            0x00, 0x00, 0x00, 0x03,                         // source (the announcer)
            0x00, 0x00, 0x00, 0x03,                         // original sender: the announcer
            0x00, 0x02,                                     // count 2
            0x00, 0x00,                                     // flags: no progress
            0x00, 0x00, 0x01, 0x00,                         // group 256
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2A, // its highest sequence number, 42
            0x00, 0x00, 0x01, 0x01,                         // group 257
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, // 7
        };
        byte[] buf = filled(OFFSET + expected.length + SLACK);

        StreamListFlyweight sessions = new StreamListFlyweight().wrap(buf, OFFSET);
        sessions.beginSessions(3);
        sessions.add(256, 42L);
        sessions.add(257, 7L);
        int len = sessions.finish();

        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET, OFFSET + len));
        assertValidExactly(buf, OFFSET, len);
    }

    @Test
    void shouldWriteRepairFrameInExactByteLayout() {
        byte[] expected = {
            0x52, 0x43, 0x01,                               // magic, version
            0x02,                                           // type REPAIR
            0x00, 0x3B,                                     // frame length 59 = 16 + 2 * 20 + 3
            0x00, 0x00,                                     // flags
            0x00, 0x00, 0x00, 0x09,                         // source (the receiver that built it)
            0x02,                                           // entry count
            0x00,                                           // reserved
            0x00, 0x03,                                     // XOR payload length = longest entry
            0x00, 0x00, 0x00, 0x01,                         // entry 0: original sender
            0x00, 0x00, 0x00, 0x02,                         //          group
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, //          seqno
            0x00, 0x02, 0x00, 0x00,                         //          length 2, reserved
            0x00, 0x00, 0x00, 0x04,                         // entry 1: original sender
            0x00, 0x00, 0x00, 0x02,                         //          group
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, //          seqno
            0x00, 0x03, 0x00, 0x00,                         //          length 3, reserved
            0x0E, (byte) 0xF2, 0x03,                        // {0x0F, 0xF0, pad 0} ^ {0x01, 0x02, 0x03}
        };
        byte[] buf = filled(OFFSET + expected.length + SLACK);
        byte[][] payloads = {{0x0F, (byte) 0xF0}, {0x01, 0x02, 0x03}};
        RepairFlyweight fw = new RepairFlyweight().wrap(buf, OFFSET);

        fw.writeStart(9, 2, 3).entry(0, 1, 2, 3L, 2).entry(1, 4, 2, 5L, 3);
        xorPayloads(fw, payloads);

        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET, OFFSET + fw.frameLength()));
        assertValidExactly(buf, OFFSET, fw.frameLength());
    }

    @Test
    void shouldWriteHeartbeatFrameInExactByteLayout() {
        byte[] expected = {
            0x52, 0x43, 0x01,                               // magic, version
            0x07,                                           // type HEARTBEAT
            0x00, 0x1C,                                     // frame length 28
            0x00, 0x00,                                     // flags
            (byte) 0x80, 0x00, 0x00, 0x01,                  // source (the pinging detector)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, // sequence 258
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, // send time -2 ns
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE,
        };
        byte[] buf = filled(OFFSET + expected.length + SLACK);

        int len = new HeartbeatFlyweight().wrap(buf, OFFSET).write(FrameType.HEARTBEAT, 0x80000001, 258L, -2L);

        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET, OFFSET + len));
        // Its ack differs in the type byte (8) and the source only.
        byte[] ack = new byte[HeartbeatFlyweight.LENGTH];
        HeartbeatFlyweight.ackInto(expected, 0, expected.length, 0x01020304, ack, 0);
        byte[] expectedAck = expected.clone();
        expectedAck[HeaderFlyweight.TYPE_OFFSET] = 0x08;
        System.arraycopy(new byte[] {0x01, 0x02, 0x03, 0x04}, 0, expectedAck, HeaderFlyweight.SOURCE_OFFSET, 4);
        assertArrayEquals(expectedAck, ack);
    }

    // ---- helpers ----

    /** Writes a repair over {@code payloads} at {@link #OFFSET}, validates it and reads every field back. */
    private static int assertRepairRoundTrip(byte[][] payloads, int source) {
        int count = payloads.length;
        int longest = 0;
        for (byte[] p : payloads) {
            longest = Math.max(longest, p.length);
        }
        byte[] buf = filled(OFFSET + RepairFlyweight.frameLength(count, longest) + SLACK);
        RepairFlyweight fw = new RepairFlyweight().wrap(buf, OFFSET);

        fw.writeStart(source, count, longest);
        for (int i = 0; i < count; i++) {
            fw.entry(i, 1000 + i, -i, Long.MAX_VALUE - i, payloads[i].length);
        }
        xorPayloads(fw, payloads);
        int len = fw.frameLength();

        assertEquals(RepairFlyweight.frameLength(count, longest), len);
        assertEquals(16 + 20 * count + longest, len);
        assertValidExactly(buf, OFFSET, len);
        assertUntouchedOutside(buf, OFFSET, len);
        RepairFlyweight r = new RepairFlyweight().wrap(buf, OFFSET);
        assertHeader(r, FrameType.REPAIR, len, source);
        assertEquals(count, r.count());
        assertEquals(longest, r.payloadLength());
        assertEquals(OFFSET + RepairFlyweight.ENTRIES_OFFSET + count * RepairFlyweight.ENTRY_LENGTH, r.payloadOffset());
        assertEquals(OFFSET + len, r.payloadOffset() + r.payloadLength());
        for (int i = 0; i < count; i++) {
            assertEquals(1000 + i, r.entryOrigin(i), "entry " + i);
            assertEquals(-i, r.entryGroup(i), "entry " + i);
            assertEquals(Long.MAX_VALUE - i, r.entrySeqno(i), "entry " + i);
            assertEquals(payloads[i].length, r.entryLength(i), "entry " + i);
        }
        byte[] expectedXor = new byte[longest];
        for (byte[] p : payloads) {
            for (int j = 0; j < p.length; j++) {
                expectedXor[j] ^= p[j];
            }
        }
        assertArrayEquals(expectedXor, Arrays.copyOfRange(buf, r.payloadOffset(), r.payloadOffset() + longest));
        // Recovery: XOR-ing all but one payload back out yields the missing one, zero-padded to the longest.
        byte[] recovered = Arrays.copyOfRange(buf, r.payloadOffset(), r.payloadOffset() + longest);
        for (int i = 1; i < count; i++) {
            Bytes.xorInto(recovered, 0, payloads[i], 0, payloads[i].length);
        }
        assertArrayEquals(payloads[0], Arrays.copyOf(recovered, r.entryLength(0)));
        assertArrayEquals(new byte[longest - payloads[0].length],
                Arrays.copyOfRange(recovered, payloads[0].length, longest), "padding recovers as zeros");
        return len;
    }

    /** Zeroes the XOR payload region (writeStart does not) and folds every payload into it. */
    private static void xorPayloads(RepairFlyweight fw, byte[][] payloads) {
        Arrays.fill(fw.buffer(), fw.payloadOffset(), fw.payloadOffset() + fw.payloadLength(), (byte) 0);
        for (byte[] p : payloads) {
            Bytes.xorInto(fw.buffer(), fw.payloadOffset(), p, 0, p.length);
        }
    }

    private static void assertHeader(HeaderFlyweight fw, int type, int length, int source) {
        assertEquals(HeaderFlyweight.MAGIC, fw.magic());
        assertEquals(HeaderFlyweight.VERSION, fw.version());
        assertEquals(type, fw.type());
        assertEquals(length, fw.frameLength());
        assertEquals(0, fw.flags());
        assertEquals(source, fw.source());
        assertEquals(OFFSET, fw.offset());
    }

    /** The validator accepts {@code [offset, offset + length)} and no window shifted or resized by one byte. */
    private static void assertValidExactly(byte[] buf, int offset, int length) {
        assertEquals(FrameValidator.Verdict.OK, FrameValidator.check(buf, offset, length));
        assertTrue(FrameValidator.isValid(buf, offset, length));
        assertNotEquals(FrameValidator.Verdict.OK, FrameValidator.check(buf, offset, length - 1));
        assertNotEquals(FrameValidator.Verdict.OK, FrameValidator.check(buf, offset, length + 1));
        assertNotEquals(FrameValidator.Verdict.OK, FrameValidator.check(buf, offset - 1, length));
        assertNotEquals(FrameValidator.Verdict.OK, FrameValidator.check(buf, offset + 1, length));
        // The same bytes copied to an exact-size array are still valid: nothing outside the window matters.
        byte[] exact = Arrays.copyOfRange(buf, offset, offset + length);
        assertEquals(FrameValidator.Verdict.OK, FrameValidator.check(exact, 0, length));
    }

    private static void assertUntouchedOutside(byte[] buf, int offset, int length) {
        for (int i = 0; i < buf.length; i++) {
            if (i < offset || i >= offset + length) {
                assertEquals(FILL, buf[i], "byte " + i + " outside the frame was written");
            }
        }
    }

    private static byte[] filled(int length) {
        byte[] b = new byte[length];
        Arrays.fill(b, FILL);
        return b;
    }

    /** Deterministic, non-constant payload bytes. */
    private static byte[] pattern(int length, int salt) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + salt * 17 + (i >>> 8));
        }
        return b;
    }
}
