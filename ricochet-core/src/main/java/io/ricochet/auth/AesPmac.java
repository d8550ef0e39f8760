package io.ricochet.auth;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * PMAC over AES (Black and Rogaway, "A Block-Cipher Mode of Operation for Parallelizable Message Authentication",
 * EUROCRYPT 2002; the variant of Rogaway's reference code and test vectors, which miscreant's PMAC-SIV uses): a
 * deterministic MAC, a PRF like HMAC, with no nonce. With L = AES(0), L(i) = L · x<sup>i</sup> and L(-1) = L ·
 * x<sup>-1</sup> in GF(2<sup>128</sup>), offsets Δ<sub>i</sub> = Δ<sub>i-1</sub> ⊕ L(ntz(i)) (Δ<sub>0</sub> = 0):
 *
 * <pre>
 * Σ   = AES(M_1 ⊕ Δ_1) ⊕ ... ⊕ AES(M_{m-1} ⊕ Δ_{m-1}) ⊕ (M_m ⊕ L(-1)  if M_m is a full block,
 *                                                      M_m | 1 0*     if shorter)
 * tag = AES(Σ)
 * </pre>
 *
 * Every block but the last is encrypted independently, so the whole message goes through one
 * {@code AES/ECB/NoPadding} call of the JDK, which runs on the CPU's AES instructions many blocks at a time; the
 * offsets are precomputed per key, so the Java side is a copy and two XOR passes over the message. That is what makes
 * it faster than HMAC-SHA256 here (docs/design/security.md, "Cost").
 *
 * <p>Not thread-safe (scratch buffers). After construction no call allocates: the offsets and scratch are sized for
 * messages of at most {@code maxLength} bytes.
 */
public final class AesPmac {
    /** Bytes of a tag (one AES block). */
    public static final int TAG_LENGTH = 16;

    private static final int BLOCK = 16;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** For XOR only, where byte order does not matter as long as it is the same throughout: no byte swaps. */
    private static final VarHandle NATIVE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.nativeOrder());

    private final Cipher aes;
    private final int maxLength;
    /** Δ_1, Δ_2, ...: the offset of every block that can precede a message's last block. */
    private final byte[] offsets;
    private final long lInverse0;
    private final long lInverse1;
    private final byte[] in;
    private final byte[] out;
    private final byte[] last = new byte[BLOCK];

    /**
     * @param key       an AES key: 16, 24 or 32 bytes (copied into the JDK's cipher)
     * @param maxLength the longest message this instance will be asked to authenticate
     */
    public AesPmac(byte[] key, int maxLength) {
        if (maxLength < 0) {
            throw new IllegalArgumentException("max length " + maxLength);
        }
        try {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("AES refused the key (" + key.length + " bytes)", e);
        }
        this.maxLength = maxLength;
        int blocks = blocksBeforeLast(maxLength);
        offsets = new byte[blocks * BLOCK];
        in = new byte[blocks * BLOCK];
        out = new byte[blocks * BLOCK];
        byte[] l = new byte[BLOCK];
        encrypt(l, 0, BLOCK, l, 0);
        long l0 = (long) LONG.get(l, 0);
        long l1 = (long) LONG.get(l, 8);
        // L(-1) = L · x^-1: shift right by one; if the bit shifted out was set, add x^-1, which is
        // 0x80000000000000000000000000000043 (the reduction polynomial 0x87 shifted right, and x^127).
        long low = -(l1 & 1);
        LONG.set(l, 0, (l0 >>> 1) ^ (low & 0x8000000000000000L));
        LONG.set(l, 8, ((l1 >>> 1) | (l0 << 63)) ^ (low & 0x43L));
        lInverse0 = (long) NATIVE.get(l, 0);
        lInverse1 = (long) NATIVE.get(l, 8);
        // L(i) = L · x^i, i = 0..63 (ntz of a block index below 2^31 is at most 30).
        long[] powers = new long[2 * 64];
        for (int i = 0; i < 64; i++) {
            powers[2 * i] = l0;
            powers[2 * i + 1] = l1;
            long carry = -(l0 >>> 63);
            l0 = (l0 << 1) | (l1 >>> 63);
            l1 = (l1 << 1) ^ (carry & 0x87L);
        }
        long d0 = 0;
        long d1 = 0;
        for (int i = 1; i <= blocks; i++) {
            int ntz = Integer.numberOfTrailingZeros(i);
            d0 ^= powers[2 * ntz];
            d1 ^= powers[2 * ntz + 1];
            LONG.set(offsets, (i - 1) * BLOCK, d0);
            LONG.set(offsets, (i - 1) * BLOCK + 8, d1);
        }
        Arrays.fill(l, (byte) 0);
        Arrays.fill(powers, 0);
    }

    /** Blocks before the last of a message of {@code length} bytes (an empty message has one, empty, last block). */
    private static int blocksBeforeLast(int length) {
        return length == 0 ? 0 : (length - 1) / BLOCK;
    }

    /** Writes the 16-byte tag of {@code m[offset, offset + length)} to {@code tag[tagOffset...]}. */
    public void mac(byte[] m, int offset, int length, byte[] tag, int tagOffset) {
        mac(m, offset, length, m, offset + length, 0, tag, tagOffset);
    }

    /**
     * Writes the 16-byte tag of the concatenation {@code a[aOffset, + aLength) | b[bOffset, + bLength)} to
     * {@code tag[tagOffset...]}: a frame and the start of its trailer, held apart or not. The tag may overwrite
     * bytes after the message but not the message itself.
     *
     * @throws IllegalArgumentException if the message is longer than this instance's max length
     */
    public void mac(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength, byte[] tag,
                    int tagOffset) {
        Objects.checkFromIndexSize(aOffset, aLength, a.length);
        Objects.checkFromIndexSize(bOffset, bLength, b.length);
        Objects.checkFromIndexSize(tagOffset, TAG_LENGTH, tag.length);
        int length = aLength + bLength;
        if (length > maxLength) {
            throw new IllegalArgumentException("message of " + length + " bytes, above " + maxLength);
        }
        int body = blocksBeforeLast(length) * BLOCK;
        // in = (every block but the last) ⊕ its offset
        int fromA = Math.min(aLength, body);
        xorOffsets(a, aOffset, 0, fromA);
        xorOffsets(b, bOffset - aLength, fromA, body);
        // the last block, 1 to 16 bytes (0 for an empty message)
        int lastLength = length - body;
        for (int j = 0; j < lastLength; j++) {
            int at = body + j;
            last[j] = at < aLength ? a[aOffset + at] : b[bOffset - aLength + at];
        }
        long s0 = 0;
        long s1 = 0;
        if (body > 0) {
            encrypt(in, 0, body, out, 0);
            byte[] y = out;
            long s2 = 0;
            long s3 = 0;
            int i = 0;
            for (; i + 2 * BLOCK <= body; i += 2 * BLOCK) {
                s0 ^= (long) NATIVE.get(y, i);
                s1 ^= (long) NATIVE.get(y, i + 8);
                s2 ^= (long) NATIVE.get(y, i + 16);
                s3 ^= (long) NATIVE.get(y, i + 24);
            }
            if (i < body) {
                s0 ^= (long) NATIVE.get(y, i);
                s1 ^= (long) NATIVE.get(y, i + 8);
            }
            s0 ^= s2;
            s1 ^= s3;
        }
        if (lastLength == BLOCK) {
            s0 ^= lInverse0;
            s1 ^= lInverse1;
        } else {
            last[lastLength] = (byte) 0x80;
            Arrays.fill(last, lastLength + 1, BLOCK, (byte) 0);
        }
        NATIVE.set(last, 0, s0 ^ (long) NATIVE.get(last, 0));
        NATIVE.set(last, 8, s1 ^ (long) NATIVE.get(last, 8));
        encrypt(last, 0, BLOCK, tag, tagOffset);
    }

    /**
     * {@code in[from, to) = src[shift + from, shift + to) ⊕ offsets[from, to)}: a copy, then an XOR of two arrays at
     * the same index, which C2 runs on vector instructions. Reading {@code src} at its own offset in the same loop
     * keeps C2 from proving the two arrays aligned alike, and that loop ran scalar: 70 % of PMAC's time in a profile
     * of 1 456-byte messages, against about a third with this form.
     */
    private void xorOffsets(byte[] src, int shift, int from, int to) {
        if (to <= from) {
            return;
        }
        byte[] x = in;
        byte[] d = offsets;
        System.arraycopy(src, shift + from, x, from, to - from);
        for (int i = from; i < to; i++) {
            x[i] ^= d[i];
        }
    }

    private void encrypt(byte[] input, int inputOffset, int length, byte[] output, int outputOffset) {
        try {
            aes.update(input, inputOffset, length, output, outputOffset);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("AES/ECB wrote more than its input", e);
        }
    }
}
