package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketIdFlyweight;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class DatagramAuthTest {
    private static final int OFFSET = 5;
    private static final int MIN = HeaderFlyweight.HEADER_LENGTH;
    private static final int MAX = HeaderFlyweight.MAX_FRAME_LENGTH;

    private final SplittableRandom random = new SplittableRandom(42);

    private byte[] key() {
        byte[] key = new byte[ClusterKeys.KEY_LENGTH];
        random.nextBytes(key);
        return key;
    }

    private static ClusterKeys keys(int id, byte[] key) {
        return new ClusterKeys(new int[] {id}, new byte[][] {key});
    }

    private static ClusterKeys keys(int id1, byte[] key1, int id2, byte[] key2) {
        return new ClusterKeys(new int[] {id1, id2}, new byte[][] {key1, key2});
    }

    /** A buffer holding a random frame of {@code frameLength} bytes at {@link #OFFSET}, with room for a trailer. */
    private byte[] frame(int frameLength) {
        byte[] buf = new byte[OFFSET + frameLength + DatagramAuth.TRAILER_LENGTH + 3];
        random.nextBytes(buf);
        return buf;
    }

    @Test
    void shouldOpenWhatItSealsForEveryFrameLength() {
        DatagramAuth auth = new DatagramAuth(keys(9, key()));
        for (int length = MIN; length <= MAX; length++) {
            byte[] buf = frame(length);
            byte[] frame = Arrays.copyOfRange(buf, OFFSET, OFFSET + length);
            int datagram = auth.seal(buf, OFFSET, length);
            assertEquals(length + DatagramAuth.TRAILER_LENGTH, datagram);
            assertEquals(9, buf[OFFSET + length]);
            assertEquals(length, auth.open(buf, OFFSET, datagram), "frame length " + length);
            assertArrayEquals(frame, Arrays.copyOfRange(buf, OFFSET, OFFSET + length));
        }
    }

    @Test
    void shouldBePmacAes256OfTheFrameKeyIdAndCounterUnderAKeyDerivedByHmac() throws GeneralSecurityException {
        byte[] key = key();
        byte[] buf = frame(1052);
        byte[] frame = Arrays.copyOfRange(buf, OFFSET, OFFSET + 1052);
        long nowMs = 1_780_000_000_123L;
        DatagramClock clock = new DatagramClock(() -> nowMs);
        int datagram = new DatagramAuth(keys(200, key), clock, new ReplayFilter(30_000, () -> nowMs))
                .seal(buf, OFFSET, 1052);
        assertEquals(1052 + 25, datagram, "frame | key id (1) | counter (8) | tag (16)");
        assertEquals((byte) 200, buf[OFFSET + 1052]);
        long counter = java.nio.ByteBuffer.wrap(buf, OFFSET + 1053, 8).getLong();
        assertEquals(nowMs << 20, counter, "the first counter of a fresh clock: its wall-clock ms, shifted");
        assertEquals(counter, DatagramAuth.counter(buf, OFFSET + 1052));
        Mac hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(key, "HmacSHA256"));
        byte[] derived = hmac.doFinal("ricochet datagram MAC: PMAC-AES-256 key"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        byte[] message = java.nio.ByteBuffer.allocate(1052 + 9).put(frame).put((byte) 200).putLong(counter).array();
        byte[] expected = new byte[16];
        new AesPmac(derived, message.length).mac(message, 0, message.length, expected, 0);
        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET + 1061, OFFSET + datagram));
    }

    @Test
    void shouldGiveTheSameFrameADifferentTagUnderEachCounter() {
        ClusterKeys keys = keys(4, key());
        DatagramAuth auth = new DatagramAuth(keys);
        byte[] buf = frame(1447);
        java.util.Set<String> tags = new java.util.HashSet<>();
        for (int i = 0; i < 100; i++) {
            int datagram = auth.seal(buf, OFFSET, 1447);
            tags.add(HexFormat.of().formatHex(buf, OFFSET + 1447 + 9, OFFSET + datagram));
        }
        assertEquals(100, tags.size(), "100 counters, 100 tags");
    }

    /**
     * DATA of one group read after more of the sender's DATA of other groups than a source's window holds (as when a
     * daemon reads its group sockets in turns) is taken; replayed, to any socket, it is refused.
     */
    @Test
    void shouldKeepDataReplayWindowsPerGroup() {
        ClusterKeys keys = keys(4, key());
        DatagramAuth sender = new DatagramAuth(keys);
        DatagramAuth receiver = new DatagramAuth(keys);
        int length = PacketIdFlyweight.ID_END + 100;
        byte[] late = dataFrame(length, 1);
        int lateDatagram = sender.seal(late, OFFSET, length);
        for (int i = 0; i < 2 * ReplayFilter.DEFAULT_WINDOW; i++) {
            byte[] other = dataFrame(length, 2 + i % 8);
            assertEquals(length, receiver.open(other, OFFSET, sender.seal(other, OFFSET, length)), "#" + i);
        }
        assertEquals(length, receiver.open(late, OFFSET, lateDatagram), "overtaken only by other groups' DATA");
        assertEquals(DatagramAuth.REPLAYED, receiver.open(late, OFFSET, lateDatagram));

        byte[] control = frame(100);
        control[OFFSET + HeaderFlyweight.TYPE_OFFSET] = FrameType.SESSION;
        Bytes.putInt(control, OFFSET + HeaderFlyweight.SOURCE_OFFSET, 77);
        int controlDatagram = sender.seal(control, OFFSET, 100);
        for (int i = 0; i <= ReplayFilter.DEFAULT_WINDOW; i++) {
            byte[] newer = frame(100);
            newer[OFFSET + HeaderFlyweight.TYPE_OFFSET] = FrameType.SESSION;
            Bytes.putInt(newer, OFFSET + HeaderFlyweight.SOURCE_OFFSET, 77);
            assertEquals(100, receiver.open(newer, OFFSET, sender.seal(newer, OFFSET, 100)));
        }
        assertEquals(DatagramAuth.REPLAYED, receiver.open(control, OFFSET, controlDatagram),
                "other frame types keep one window per source: overtaken by more than it, refused");
    }

    /**
     * Frames sent to one process (NAK, REPAIR, STABLE, HEARTBEAT...) open only at the process they were sealed for: a
     * copy replayed to another one fails there as unauthentic and leaves no state; multicast types open anywhere.
     */
    @Test
    void shouldOpenAFrameBoundToItsReceiverOnlyAtThatReceiver() {
        ClusterKeys keys = keys(2, key());
        DatagramAuth sender = new DatagramAuth(keys);
        for (int type = 0; type < 256; type++) {
            ReplayFilter filter = new ReplayFilter(30_000, System::currentTimeMillis);
            DatagramAuth five = new DatagramAuth(keys, DatagramClock.system(), filter, 5);
            DatagramAuth six = new DatagramAuth(keys, DatagramClock.system(), filter, 6);
            byte[] buf = frame(60);
            buf[OFFSET + HeaderFlyweight.TYPE_OFFSET] = (byte) type;
            int datagram = sender.seal(buf, OFFSET, 60, 5);
            if (FrameType.isBoundToReceiver(type)) {
                assertEquals(DatagramAuth.BAD_TAG, six.open(buf.clone(), OFFSET, datagram), "type " + type);
                assertEquals(DatagramAuth.BAD_TAG, new DatagramAuth(keys).open(buf.clone(), OFFSET, datagram));
                assertEquals(0, filter.windows(), "a copy for someone else leaves no state, type " + type);
                assertEquals(60, five.open(buf, OFFSET, datagram), "type " + type);
            } else {
                assertEquals(60, six.open(buf.clone(), OFFSET, datagram), "type " + type + " is not bound");
                assertEquals(DatagramAuth.REPLAYED, five.open(buf, OFFSET, datagram), "one window per process");
            }
        }
        assertTrue(FrameType.isBoundToReceiver(FrameType.NAK) && FrameType.isBoundToReceiver(FrameType.REPAIR)
                && FrameType.isBoundToReceiver(FrameType.HEARTBEAT) && !FrameType.isBoundToReceiver(FrameType.DATA));
    }

    /**
     * With encryption, every frame but failure detection's leaves with its bytes after the header encrypted (never
     * twice the same for the same frame), opens to the plaintext at a guard that encrypts, and is unauthentic at one
     * that does not (and the other way round); a flipped ciphertext bit is refused.
     */
    @Test
    void shouldEncryptEveryFrameButHeartbeatsAndOpenOnlyWhereEncryptionIsOn() {
        ClusterKeys keys = keys(3, key());
        DatagramAuth sealer = new DatagramAuth(keys, DatagramClock.system(),
                new ReplayFilter(30_000, System::currentTimeMillis), 1, true);
        int length = 200;
        for (int type : new int[] {FrameType.DATA, FrameType.REPAIR, FrameType.NAK, FrameType.SESSION,
            FrameType.HEARTBEAT, FrameType.HEARTBEAT_ACK, FrameType.SRM_FIRST}) {
            byte[] buf = frame(length);
            buf[OFFSET + HeaderFlyweight.TYPE_OFFSET] = (byte) type;
            byte[] plain = Arrays.copyOfRange(buf, OFFSET, OFFSET + length);
            byte[] again = buf.clone();
            int datagram = sealer.seal(buf, OFFSET, length, 2);
            sealer.seal(again, OFFSET, length, 2);
            boolean clear = type == FrameType.HEARTBEAT || type == FrameType.HEARTBEAT_ACK;
            byte[] wire = Arrays.copyOfRange(buf, OFFSET, OFFSET + length);
            assertArrayEquals(Arrays.copyOf(plain, HeaderFlyweight.HEADER_LENGTH),
                    Arrays.copyOf(wire, HeaderFlyweight.HEADER_LENGTH), "the header stays in clear, type " + type);
            assertEquals(clear, Arrays.equals(plain, wire), "type " + type);
            if (!clear) {
                assertTrue(!Arrays.equals(wire, Arrays.copyOfRange(again, OFFSET, OFFSET + length)),
                        "the same frame sealed twice encrypts differently (another counter), type " + type);
            }
            byte[] flipped = buf.clone();
            flipped[OFFSET + length - 1] ^= 1;
            assertEquals(DatagramAuth.BAD_TAG, encrypting(keys, 2).open(flipped, OFFSET, datagram), "type " + type);
            assertEquals(clear ? length : DatagramAuth.BAD_TAG, new DatagramAuth(keys, DatagramClock.system(),
                    new ReplayFilter(30_000, System::currentTimeMillis), 2).open(buf.clone(), OFFSET, datagram),
                    "a guard that does not decrypt, type " + type);
            assertEquals(length, encrypting(keys, 2).open(buf, OFFSET, datagram), "type " + type);
            assertArrayEquals(plain, Arrays.copyOfRange(buf, OFFSET, OFFSET + length), "decrypted, type " + type);
        }
        byte[] buf = frame(length);
        buf[OFFSET + HeaderFlyweight.TYPE_OFFSET] = FrameType.DATA;
        int datagram = new DatagramAuth(keys).seal(buf, OFFSET, length);
        assertEquals(DatagramAuth.BAD_TAG, encrypting(keys, 2).open(buf, OFFSET, datagram),
                "a datagram in clear is refused where the cluster encrypts");
    }

    private static DatagramAuth encrypting(ClusterKeys keys, int self) {
        return new DatagramAuth(keys, DatagramClock.system(), new ReplayFilter(30_000, System::currentTimeMillis),
                self, true);
    }

    /** A DATA frame from source 77 in {@code group}, random payload, at {@link #OFFSET}. */
    private byte[] dataFrame(int length, int group) {
        byte[] buf = frame(length);
        buf[OFFSET + HeaderFlyweight.TYPE_OFFSET] = FrameType.DATA;
        Bytes.putInt(buf, OFFSET + HeaderFlyweight.SOURCE_OFFSET, 77);
        Bytes.putInt(buf, OFFSET + PacketIdFlyweight.GROUP_OFFSET, group);
        return buf;
    }

    @Test
    void shouldRefuseTheSameDatagramTwiceAndNoteNothingForAForgery() {
        ClusterKeys keys = keys(4, key());
        ReplayFilter filter = new ReplayFilter(30_000, System::currentTimeMillis);
        DatagramAuth sender = new DatagramAuth(keys);
        DatagramAuth receiver = new DatagramAuth(keys, DatagramClock.system(), filter);
        DatagramAuth otherThread = new DatagramAuth(keys, DatagramClock.system(), filter);
        byte[] buf = frame(300);
        int datagram = sender.seal(buf, OFFSET, 300);
        byte[] copy = buf.clone();
        copy[OFFSET + 40] ^= 1;
        assertEquals(DatagramAuth.BAD_TAG, receiver.open(copy, OFFSET, datagram));
        assertEquals(0, filter.windows(), "a forgery creates no state");
        assertEquals(300, receiver.open(buf, OFFSET, datagram));
        assertEquals(DatagramAuth.REPLAYED, receiver.open(buf, OFFSET, datagram));
        assertEquals(DatagramAuth.REPLAYED, otherThread.open(buf, OFFSET, datagram), "one filter per process");
        assertEquals(300, new DatagramAuth(keys).open(buf, OFFSET, datagram), "another process takes it once");
        int next = sender.seal(buf, OFFSET, 300);
        assertEquals(300, otherThread.open(buf, OFFSET, next), "the next one, sealed again, is new");
    }

    @Test
    void shouldRefuseADatagramSealedBeyondTheClockSkewEitherWay() {
        ClusterKeys keys = keys(4, key());
        java.util.concurrent.atomic.AtomicLong receiverMs = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
        DatagramAuth receiver = new DatagramAuth(keys, DatagramClock.system(),
                new ReplayFilter(30_000, receiverMs::get));
        for (long senderMs : new long[] {1_000_000_000L - 30_001, 1_000_000_000L + 30_001}) {
            byte[] buf = frame(100);
            int datagram = new DatagramAuth(keys, new DatagramClock(() -> senderMs),
                    new ReplayFilter(30_000, () -> senderMs)).seal(buf, OFFSET, 100);
            assertEquals(DatagramAuth.STALE, receiver.open(buf, OFFSET, datagram), "sent at " + senderMs);
        }
        for (long senderMs : new long[] {1_000_000_000L - 30_000, 1_000_000_000L + 29_999}) {
            byte[] buf = frame(100);
            int datagram = new DatagramAuth(keys, new DatagramClock(() -> senderMs),
                    new ReplayFilter(30_000, () -> senderMs)).seal(buf, OFFSET, 100);
            assertEquals(100, receiver.open(buf, OFFSET, datagram), "sent at " + senderMs);
        }
    }

    @Test
    void shouldMatchTheRfc4231TestVector() {
        byte[] key = new byte[20];
        Arrays.fill(key, (byte) 0x0b);
        byte[] data = "Hi There".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = new byte[HmacSha256.LENGTH];
        new HmacSha256(key).mac(data, 0, data.length, out, 0);
        assertEquals("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                HexFormat.of().formatHex(out));
    }

    @Test
    void shouldRefuseAnyFlippedBitInFrameOrTrailer() {
        DatagramAuth auth = new DatagramAuth(keys(1, key(), 3, key()));
        for (int length : new int[] {MIN, 100, 1052, MAX}) {
            byte[] buf = frame(length);
            int datagram = auth.seal(buf, OFFSET, length);
            for (int bit = 0; bit < datagram * 8; bit++) {
                buf[OFFSET + bit / 8] ^= (byte) (1 << (bit % 8));
                int result = auth.open(buf, OFFSET, datagram);
                assertTrue(result == DatagramAuth.BAD_TAG || result == DatagramAuth.UNKNOWN_KEY,
                        "length " + length + " bit " + bit + ": " + result);
                buf[OFFSET + bit / 8] ^= (byte) (1 << (bit % 8));
            }
            assertEquals(length, auth.open(buf, OFFSET, datagram));
        }
    }

    @Test
    void shouldRefuseAnUnknownKeyId() {
        byte[] buf = frame(200);
        int datagram = new DatagramAuth(keys(7, key())).seal(buf, OFFSET, 200);
        assertEquals(DatagramAuth.UNKNOWN_KEY, new DatagramAuth(keys(1, key(), 2, key())).open(buf, OFFSET, datagram));
    }

    @Test
    void shouldRefuseAnotherKeyWithTheSameId() {
        byte[] buf = frame(200);
        int datagram = new DatagramAuth(keys(7, key())).seal(buf, OFFSET, 200);
        assertEquals(DatagramAuth.BAD_TAG, new DatagramAuth(keys(7, key())).open(buf, OFFSET, datagram));
    }

    @Test
    void shouldRefuseATruncatedDatagram() {
        DatagramAuth auth = new DatagramAuth(keys(1, key()));
        byte[] buf = frame(300);
        int datagram = auth.seal(buf, OFFSET, 300);
        for (int length = 0; length < datagram; length++) {
            int result = auth.open(buf, OFFSET, length);
            if (length < MIN + DatagramAuth.TRAILER_LENGTH) {
                assertEquals(DatagramAuth.TOO_SHORT, result, "length " + length);
            } else {
                assertTrue(result == DatagramAuth.BAD_TAG || result == DatagramAuth.UNKNOWN_KEY, "length " + length);
            }
        }
    }

    @Test
    void shouldRefuseADatagramLongerThanTheLargestFrameAndTrailer() {
        DatagramAuth auth = new DatagramAuth(keys(1, key()));
        byte[] buf = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH + 1];
        assertEquals(DatagramAuth.TOO_LONG, auth.open(buf, 0, buf.length));
        assertEquals(MAX + DatagramAuth.TRAILER_LENGTH, DatagramAuth.MAX_DATAGRAM_LENGTH);
    }

    @Test
    void shouldNeverOpenRandomBytes() {
        DatagramAuth auth = new DatagramAuth(keys(1, key(), 2, key()));
        byte[] buf = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH + 10];
        for (int i = 0; i < 5_000; i++) {
            random.nextBytes(buf);
            int length = random.nextInt(buf.length + 1);
            assertTrue(auth.open(buf, 0, length) < 0);
        }
    }

    @Test
    void shouldOpenWithEitherKeyDuringRotation() {
        byte[] oldKey = key();
        byte[] newKey = key();
        DatagramAuth oldSender = new DatagramAuth(keys(1, oldKey));
        DatagramAuth addedSecond = new DatagramAuth(keys(1, oldKey, 2, newKey));
        DatagramAuth movedFirst = new DatagramAuth(keys(2, newKey, 1, oldKey));
        DatagramAuth newOnly = new DatagramAuth(keys(2, newKey));
        for (DatagramAuth sender : new DatagramAuth[] {oldSender, addedSecond, movedFirst, newOnly}) {
            byte[] buf = frame(500);
            int datagram = sender.seal(buf, OFFSET, 500);
            boolean sentWithNew = sender == movedFirst || sender == newOnly;
            assertEquals(sentWithNew ? 2 : 1, buf[OFFSET + 500], "the first key seals");
            assertEquals(500, addedSecond.open(buf, OFFSET, datagram));
            assertEquals(500, movedFirst.open(buf, OFFSET, datagram));
            assertEquals(sentWithNew ? DatagramAuth.UNKNOWN_KEY : 500, oldSender.open(buf, OFFSET, datagram));
            assertEquals(sentWithNew ? 500 : DatagramAuth.UNKNOWN_KEY, newOnly.open(buf, OFFSET, datagram));
        }
    }

    @Test
    void shouldRefuseToSealAFrameOutsideTheFrameLengthsOrTheBuffer() {
        DatagramAuth auth = new DatagramAuth(keys(1, key()));
        byte[] buf = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH + 1];
        assertThrows(IllegalArgumentException.class, () -> auth.seal(buf, 0, MAX + 1));
        assertThrows(IllegalArgumentException.class, () -> auth.seal(buf, 0, MIN - 1));
        assertThrows(IndexOutOfBoundsException.class, () -> auth.seal(buf, 2, MAX));
        assertEquals(DatagramAuth.MAX_DATAGRAM_LENGTH, auth.seal(buf, 1, MAX));
        assertThrows(IndexOutOfBoundsException.class, () -> auth.open(buf, 2, buf.length));
    }

    @Test
    void shouldNameEachReason() {
        assertEquals("too short", DatagramAuth.reason(DatagramAuth.TOO_SHORT));
        assertEquals("too long", DatagramAuth.reason(DatagramAuth.TOO_LONG));
        assertEquals("unknown key id", DatagramAuth.reason(DatagramAuth.UNKNOWN_KEY));
        assertEquals("bad tag", DatagramAuth.reason(DatagramAuth.BAD_TAG));
        assertEquals("replayed", DatagramAuth.reason(DatagramAuth.REPLAYED));
        assertEquals("stale", DatagramAuth.reason(DatagramAuth.STALE));
        assertEquals(25, DatagramAuth.TRAILER_LENGTH, "the wire format's trailer: key id, 8-byte counter, 16-byte tag");
    }
}
