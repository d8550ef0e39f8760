package io.ricochet.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Covers {@link Bytes}: the XOR kernel against a byte-by-byte reference for every length 0..40 and every source and
 * destination offset 0..9 (so both the eight-byte loop and the tail loop, aligned and unaligned, are hit), and the
 * big-endian layout of the short/int/long accessors, including sign handling and unaligned offsets. It also pins
 * that a read past the end of the array throws, which the bounds proof in {@link WireFuzzTest} relies on.
 */
class BytesTest {
    private static final long SEED = 0x42595445535eL;

    @Test
    void shouldXorIntoLikeByteByByteReference() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int len = 0; len <= 40; len++) {
            for (int dstOff = 0; dstOff <= 9; dstOff++) {
                for (int srcOff = 0; srcOff <= 9; srcOff++) {
                    byte[] dst = randomBytes(rnd, dstOff + len + 9);
                    byte[] src = randomBytes(rnd, srcOff + len + 9);
                    byte[] srcBefore = src.clone();
                    byte[] expected = dst.clone();
                    for (int i = 0; i < len; i++) {
                        expected[dstOff + i] = (byte) (expected[dstOff + i] ^ src[srcOff + i]);
                    }

                    Bytes.xorInto(dst, dstOff, src, srcOff, len);

                    String where = "len=" + len + " dstOff=" + dstOff + " srcOff=" + srcOff + " seed=" + SEED;
                    assertArrayEquals(expected, dst, where);
                    assertArrayEquals(srcBefore, src, "source modified: " + where);
                }
            }
        }
    }

    @Test
    void shouldXorIntoArrayEndingExactlyAtRegionEnd() {
        for (int len = 0; len <= 40; len++) {
            byte[] dst = new byte[len];
            byte[] src = new byte[len];
            for (int i = 0; i < len; i++) {
                dst[i] = (byte) (i * 7 + 1);
                src[i] = (byte) (i * 13 + 5);
            }
            byte[] expected = new byte[len];
            for (int i = 0; i < len; i++) {
                expected[i] = (byte) (dst[i] ^ src[i]);
            }

            Bytes.xorInto(dst, 0, src, 0, len);

            assertArrayEquals(expected, dst, "len=" + len);
        }
    }

    @Test
    void shouldXorTwiceToRestoreOriginal() {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        byte[] original = randomBytes(rnd, 1024);
        byte[] other = randomBytes(rnd, 1031);
        byte[] dst = original.clone();

        Bytes.xorInto(dst, 0, other, 7, 1024);
        Bytes.xorInto(dst, 0, other, 7, 1024);

        assertArrayEquals(original, dst);
    }

    @Test
    void shouldReadAndWriteShortBigEndian() {
        byte[] b = new byte[4];
        Bytes.putShort(b, 1, 0x1234);
        assertArrayEquals(new byte[] {0x00, 0x12, 0x34, 0x00}, b);
        assertEquals(0x1234, Bytes.getUnsignedShort(b, 1));

        // Only the low 16 bits are written.
        Bytes.putShort(b, 0, 0x7ABCD);
        assertArrayEquals(new byte[] {(byte) 0xAB, (byte) 0xCD, 0x34, 0x00}, b);

        // The getter is unsigned: 0xFFFE is 65534, not -2.
        assertEquals(0xFFFE, Bytes.getUnsignedShort(new byte[] {(byte) 0xFF, (byte) 0xFE}, 0));
        assertEquals(0x8000, Bytes.getUnsignedShort(new byte[] {(byte) 0x80, 0x00}, 0));
    }

    @Test
    void shouldReadUnsignedByte() {
        byte[] b = {0x00, 0x7F, (byte) 0x80, (byte) 0xFF};
        assertEquals(0, Bytes.getUnsignedByte(b, 0));
        assertEquals(127, Bytes.getUnsignedByte(b, 1));
        assertEquals(128, Bytes.getUnsignedByte(b, 2));
        assertEquals(255, Bytes.getUnsignedByte(b, 3));
    }

    @Test
    void shouldReadAndWriteIntBigEndian() {
        byte[] b = new byte[6];
        Bytes.putInt(b, 1, 0x01020304);
        assertArrayEquals(new byte[] {0x00, 0x01, 0x02, 0x03, 0x04, 0x00}, b);
        assertEquals(0x01020304, Bytes.getInt(b, 1));

        Bytes.putInt(b, 2, -2);
        assertArrayEquals(new byte[] {0x00, 0x01, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE}, b);
        assertEquals(-2, Bytes.getInt(b, 2));

        assertEquals(Integer.MIN_VALUE, Bytes.getInt(new byte[] {(byte) 0x80, 0, 0, 0}, 0));
        assertEquals(Integer.MAX_VALUE, Bytes.getInt(new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, 0));
    }

    @Test
    void shouldReadAndWriteLongBigEndian() {
        byte[] b = new byte[10];
        Bytes.putLong(b, 1, 0x0102030405060708L);
        assertArrayEquals(new byte[] {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x00}, b);
        assertEquals(0x0102030405060708L, Bytes.getLong(b, 1));

        byte[] max = {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        assertEquals(Long.MAX_VALUE, Bytes.getLong(max, 0));
        byte[] out = new byte[8];
        Bytes.putLong(out, 0, Long.MAX_VALUE);
        assertArrayEquals(max, out);

        assertEquals(Long.MIN_VALUE, Bytes.getLong(new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0}, 0));
        assertEquals(-1L, Bytes.getLong(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}, 0));
    }

    @Test
    void shouldAgreeWithBigEndianByteBufferAtEveryOffset() {
        SplittableRandom rnd = new SplittableRandom(SEED + 2);
        for (int round = 0; round < 200; round++) {
            for (int off = 0; off <= 9; off++) {
                byte[] b = new byte[off + 8 + 3];
                ByteBuffer ref = ByteBuffer.allocate(b.length).order(ByteOrder.BIG_ENDIAN);
                String where = "round=" + round + " off=" + off + " seed=" + (SEED + 2);

                short s = (short) rnd.nextInt();
                Bytes.putShort(b, off, s);
                ref.putShort(off, s);
                assertArrayEquals(ref.array(), b, "short " + where);
                assertEquals(s & 0xFFFF, Bytes.getUnsignedShort(b, off), where);

                int i = rnd.nextInt();
                Bytes.putInt(b, off, i);
                ref.putInt(off, i);
                assertArrayEquals(ref.array(), b, "int " + where);
                assertEquals(i, Bytes.getInt(b, off), where);

                long l = rnd.nextLong();
                Bytes.putLong(b, off, l);
                ref.putLong(off, l);
                assertArrayEquals(ref.array(), b, "long " + where);
                assertEquals(l, Bytes.getLong(b, off), where);
            }
        }
    }

    @Test
    void shouldThrowOnAccessPastArrayEnd() {
        byte[] b = new byte[8];
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.getUnsignedByte(b, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.getUnsignedShort(b, 7));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.getInt(b, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.getLong(b, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.xorInto(new byte[16], 0, b, 1, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> Bytes.xorInto(new byte[16], 0, b, 0, 9));
    }

    private static byte[] randomBytes(SplittableRandom rnd, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
        return b;
    }
}
