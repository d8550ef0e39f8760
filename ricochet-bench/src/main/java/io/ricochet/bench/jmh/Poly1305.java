package io.ricochet.bench.jmh;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Poly1305 (RFC 8439, section 2.5): the one-time authenticator {@code tag = ((Σ c_i · r^(q-i+1)) mod 2^130 - 5) + s
 * mod 2^128} over a message cut into 16-byte blocks, with a 32-byte key {@code r | s}; {@code s} (at least) must
 * be fresh for every message, as Poly1305-AES draws it from a nonce. A candidate of {@link DatagramAuthBenchmark}
 * (POLY1305_AES, POLY1305_AES_ONETIME), measured and not chosen: in Java it runs at about the speed of the JDK's
 * SHA-NI HMAC-SHA256 (docs/design/security.md, "Cost"), so it is kept here, beside its benchmark, not in the daemon.
 *
 * <p>Written for 64-bit JVMs: the accumulator is three limbs of radix 2<sup>64</sup> ({@code h2} holds the bits above
 * 128, a few at most), {@code r} two limbs, and each 64 × 64-bit product is {@code a * b} for its low half and
 * {@link Math#multiplyHigh} for its high half (an intrinsic on x86-64). The arithmetic is the same sequence of
 * operations for every key and message (carries are computed with bit operations, never branches), so its time
 * depends on the message's length only.
 *
 * <p>Not thread-safe: the key and the accumulator are fields. {@link #init}, {@link #update} and {@link #finish}
 * allocate nothing.
 */
public final class Poly1305 {
    /** Bytes of a one-time key ({@code r | s}) and of a tag. */
    public static final int KEY_LENGTH = 32;
    public static final int TAG_LENGTH = 16;

    private static final int BLOCK = 16;
    private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private long r0;
    private long r1;
    private long s1;
    private long pad0;
    private long pad1;
    private long h0;
    private long h1;
    private long h2;
    /** Bytes of a partial block waiting in {@link #buffer}. */
    private int buffered;
    private final byte[] buffer = new byte[BLOCK];

    /** Starts a tag with the one-time key {@code key[offset, offset + 32)}: r (clamped here), then s. */
    public Poly1305 init(byte[] key, int offset) {
        r0 = (long) LE_LONG.get(key, offset) & 0x0FFFFFFC0FFFFFFFL;
        r1 = (long) LE_LONG.get(key, offset + 8) & 0x0FFFFFFC0FFFFFFCL;
        s1 = r1 + (r1 >>> 2);
        pad0 = (long) LE_LONG.get(key, offset + 16);
        pad1 = (long) LE_LONG.get(key, offset + 24);
        h0 = 0;
        h1 = 0;
        h2 = 0;
        buffered = 0;
        return this;
    }

    /** Adds {@code data[offset, offset + length)} to the message. */
    public Poly1305 update(byte[] data, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, data.length);
        if (buffered > 0) {
            int take = Math.min(length, BLOCK - buffered);
            System.arraycopy(data, offset, buffer, buffered, take);
            buffered += take;
            offset += take;
            length -= take;
            if (buffered < BLOCK) {
                return this;
            }
            blocks(buffer, 0, 1);
            buffered = 0;
        }
        int full = length / BLOCK;
        if (full > 0) {
            blocks(data, offset, full);
            offset += full * BLOCK;
            length -= full * BLOCK;
        }
        if (length > 0) {
            System.arraycopy(data, offset, buffer, 0, length);
            buffered = length;
        }
        return this;
    }

    /** Writes the 16-byte tag of the message to {@code out[outOffset...]}. Call {@link #init} before the next. */
    public void finish(byte[] out, int outOffset) {
        java.util.Objects.checkFromIndexSize(outOffset, TAG_LENGTH, out.length);
        if (buffered > 0) {
            // The last, short block: its bytes, then a 1 byte, then zeros; no 2^128 bit.
            buffer[buffered] = 1;
            for (int i = buffered + 1; i < BLOCK; i++) {
                buffer[i] = 0;
            }
            absorb((long) LE_LONG.get(buffer, 0), (long) LE_LONG.get(buffer, 8), 0);
            multiplyByR();
            buffered = 0;
        }
        // Full reduction mod p = 2^130 - 5: h is below 2p here; take h - p if that is not negative.
        long g0 = h0 + 5;
        long c = carry(h0, 5, g0);
        long g1 = h1 + c;
        c = carry(h1, c, g1);
        long g2 = h2 + c;
        long mask = -(g2 >>> 2); // all ones if h + 5 reached 2^130, i.e. h >= p
        long t0 = (h0 & ~mask) | (g0 & mask);
        long t1 = (h1 & ~mask) | (g1 & mask);
        // tag = (h + s) mod 2^128
        long o0 = t0 + pad0;
        c = carry(t0, pad0, o0);
        long o1 = t1 + pad1 + c;
        LE_LONG.set(out, outOffset, o0);
        LE_LONG.set(out, outOffset + 8, o1);
        h0 = 0;
        h1 = 0;
        h2 = 0;
    }

    /** Absorbs {@code n} full 16-byte blocks (each with its 2^128 bit) from {@code m[offset...]}. */
    private void blocks(byte[] m, int offset, int n) {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        final long q0 = r0;
        final long q1 = r1;
        final long qs1 = s1;
        for (int end = offset + n * BLOCK; offset < end; offset += BLOCK) {
            // h += c + 2^128
            long m0 = (long) LE_LONG.get(m, offset);
            long m1 = (long) LE_LONG.get(m, offset + 8);
            long x0 = a0 + m0;
            long c = carry(a0, m0, x0);
            long x1 = a1 + m1 + c;
            long x2 = a2 + carry3(a1, m1, c, x1) + 1;
            // d0 = x0·r0 + x1·s1; d1 = x0·r1 + x1·r0 + x2·s1 (+ d0's high half); d2 = x2·r0 (+ d1's high half)
            long e0 = x0 * q0;
            long e1 = x1 * qs1;
            long d0lo = e0 + e1;
            long d0hi = umulh(x0, q0) + umulh(x1, qs1) + carry(e0, e1, d0lo);
            long f0 = x0 * q1;
            long f1 = x1 * q0;
            long d1lo = f0 + f1;
            long d1hi = umulh(x0, q1) + umulh(x1, q0) + carry(f0, f1, d1lo);
            long f2 = x2 * qs1 + d0hi; // x2 is a few bits and s1 < 2^61, d0hi < 2^62: no overflow
            long t = d1lo + f2;
            d1hi += carry(d1lo, f2, t);
            long d2 = d1hi + x2 * q0;
            // 2^130 = 5 mod p: fold the bits above 130 back, times 5 (4·q + q)
            c = (d2 >>> 2) + (d2 & ~3L);
            a2 = d2 & 3;
            a0 = d0lo + c;
            c = carry(d0lo, c, a0);
            a1 = t + c;
            a2 += carry(t, c, a1);
        }
        h0 = a0;
        h1 = a1;
        h2 = a2;
    }

    /** h += c + hibit · 2^128. */
    private void absorb(long m0, long m1, long hibit) {
        long x0 = h0 + m0;
        long c = carry(h0, m0, x0);
        long x1t = h1 + m1;
        long c1 = carry(h1, m1, x1t);
        long x1 = x1t + c;
        c1 |= carry(x1t, c, x1);
        h0 = x0;
        h1 = x1;
        h2 = h2 + c1 + hibit;
    }

    /** h = h · r, partially reduced (h2 stays a few bits). */
    private void multiplyByR() {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        // d0 = a0·r0 + a1·s1; d1 = a0·r1 + a1·r0 + a2·s1; d2 = a2·r0
        long lo = a0 * r0;
        long hi = umulh(a0, r0);
        long l2 = a1 * s1;
        long d0lo = lo + l2;
        long d0hi = hi + umulh(a1, s1) + carry(lo, l2, d0lo);
        long e0 = a0 * r1;
        long e1 = a1 * r0;
        long e2 = a2 * s1;
        long d1lo = e0 + e1;
        long d1hi = umulh(a0, r1) + umulh(a1, r0) + carry(e0, e1, d1lo);
        long t = d1lo + e2;
        d1hi += carry(d1lo, e2, t);
        d1lo = t;
        // + d0's high half
        t = d1lo + d0hi;
        d1hi += carry(d1lo, d0hi, t);
        d1lo = t;
        long d2 = d1hi + a2 * r0;
        long c = (d2 >>> 2) + (d2 & ~3L);
        d2 &= 3;
        long n0 = d0lo + c;
        c = carry(d0lo, c, n0);
        long n1 = d1lo + c;
        c = carry(d1lo, c, n1);
        h0 = n0;
        h1 = n1;
        h2 = d2 + c;
    }

    /** The carry out of the unsigned sum {@code sum = a + b} (0 or 1), without a branch. */
    private static long carry(long a, long b, long sum) {
        return ((a & b) | ((a | b) & ~sum)) >>> 63;
    }

    /** High 64 bits of the unsigned product of {@code a} and {@code b}, {@code b} below 2^63. */
    private static long umulh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b);
    }

    /** The carry out of the unsigned sum {@code sum = a + b + c}, {@code c} 0 or 1. */
    private static long carry3(long a, long b, long c, long sum) {
        long ab = a + b;
        return carry(a, b, ab) | carry(ab, c, sum);
    }
}
