package io.ricochet.fec;

import io.ricochet.wire.Bytes;

/**
 * Arithmetic in the finite field GF(2^8), the symbol alphabet of the Reed-Solomon code: elements are bytes
 * (0..255), addition is XOR, and multiplication is polynomial multiplication modulo the primitive polynomial
 * x^8 + x^4 + x^3 + x^2 + 1 ({@value #POLYNOMIAL}), whose root 2 generates the multiplicative group.
 *
 * <p>Multiplication goes through log/exp tables ({@code a * b = exp(log a + log b)}); the row kernel
 * {@link #mulAdd} uses a 256 x 256 product table built from them once, so a payload byte costs one lookup and one
 * XOR, as in the table-driven codes the digital fountain paper measures.
 */
public final class Gf256 {
    /** The field's reduction polynomial, bit i the coefficient of x^i. */
    public static final int POLYNOMIAL = 0x11D;
    /** Number of non-zero elements, the order of the multiplicative group. */
    public static final int ORDER = 255;

    /** {@code EXP[i] = 2^i}, stored twice over so that {@code log a + log b} indexes it without a modulo. */
    private static final int[] EXP = new int[2 * ORDER];
    /** {@code LOG[2^i] = i}; {@code LOG[0]} is unused. */
    private static final int[] LOG = new int[256];
    /** {@code PRODUCT[a][b] = a * b}. */
    private static final byte[][] PRODUCT = new byte[256][256];

    static {
        int x = 1;
        for (int i = 0; i < ORDER; i++) {
            EXP[i] = x;
            EXP[i + ORDER] = x;
            LOG[x] = i;
            x <<= 1;
            if ((x & 0x100) != 0) {
                x ^= POLYNOMIAL;
            }
        }
        for (int a = 1; a < 256; a++) {
            for (int b = 1; b < 256; b++) {
                PRODUCT[a][b] = (byte) EXP[LOG[a] + LOG[b]];
            }
        }
    }

    private Gf256() {
    }

    public static int add(int a, int b) {
        return a ^ b;
    }

    public static int mul(int a, int b) {
        return a == 0 || b == 0 ? 0 : EXP[LOG[a] + LOG[b]];
    }

    /** {@code a / b}; throws {@link ArithmeticException} for {@code b = 0}. */
    public static int div(int a, int b) {
        if (b == 0) {
            throw new ArithmeticException("division by zero in GF(256)");
        }
        return a == 0 ? 0 : EXP[LOG[a] - LOG[b] + ORDER];
    }

    /** The multiplicative inverse of {@code a != 0}. */
    public static int inv(int a) {
        return div(1, a);
    }

    /** {@code 2^power} for any {@code power >= 0}. */
    public static int exp(int power) {
        return EXP[power % ORDER];
    }

    /** The discrete logarithm base 2 of {@code a != 0}, in 0..254. */
    public static int log(int a) {
        if (a == 0) {
            throw new ArithmeticException("log of zero in GF(256)");
        }
        return LOG[a];
    }

    /**
     * {@code dst[dstOff + i] += coefficient * src[srcOff + i]} for {@code i < length}: the one kernel both encoding
     * and decoding are built from. A coefficient of 1 is a plain XOR, of 0 nothing.
     */
    public static void mulAdd(byte[] dst, int dstOff, byte[] src, int srcOff, int length, int coefficient) {
        if (coefficient == 0) {
            return;
        }
        if (coefficient == 1) {
            Bytes.xorInto(dst, dstOff, src, srcOff, length);
            return;
        }
        byte[] row = PRODUCT[coefficient];
        for (int i = 0; i < length; i++) {
            dst[dstOff + i] ^= row[src[srcOff + i] & 0xFF];
        }
    }
}
