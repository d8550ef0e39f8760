package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.HeaderFlyweight;
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
    void shouldBeHmacSha256OfTheFrameAndKeyIdTruncatedTo16Bytes() throws GeneralSecurityException {
        byte[] key = key();
        byte[] buf = frame(1052);
        int datagram = new DatagramAuth(keys(200, key)).seal(buf, OFFSET, 1052);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        mac.update(buf, OFFSET, 1052 + 1);
        byte[] expected = Arrays.copyOf(mac.doFinal(), DatagramAuth.TAG_LENGTH);
        assertEquals((byte) 200, buf[OFFSET + 1052]);
        assertArrayEquals(expected, Arrays.copyOfRange(buf, OFFSET + 1053, OFFSET + datagram));
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
        assertEquals(17, DatagramAuth.TRAILER_LENGTH, "the wire format's trailer: key id and a 16-byte tag");
    }
}
