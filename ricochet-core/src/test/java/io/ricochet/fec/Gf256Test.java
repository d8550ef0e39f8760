package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** GF(2^8) against its definition: a field, with multiplication modulo the primitive polynomial. */
class Gf256Test {
    /** Carry-less multiplication reduced modulo 0x11D, bit by bit: the definition the tables must agree with. */
    private static int slowMul(int a, int b) {
        int product = 0;
        for (int bit = 0; bit < 8; bit++) {
            if ((b & (1 << bit)) != 0) {
                product ^= a << bit;
            }
        }
        for (int bit = 15; bit >= 8; bit--) {
            if ((product & (1 << bit)) != 0) {
                product ^= Gf256.POLYNOMIAL << (bit - 8);
            }
        }
        return product;
    }

    @Test
    void shouldMultiplyAsPolynomialsModuloThePrimitivePolynomial() {
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                assertEquals(slowMul(a, b), Gf256.mul(a, b), a + " * " + b);
            }
        }
    }

    @Test
    void shouldHaveTwoAsAGeneratorOfEveryNonZeroElement() {
        Set<Integer> powers = new HashSet<>();
        for (int i = 0; i < Gf256.ORDER; i++) {
            powers.add(Gf256.exp(i));
            assertEquals(i, Gf256.log(Gf256.exp(i)));
        }
        assertEquals(255, powers.size());
        assertEquals(1, Gf256.exp(Gf256.ORDER));
    }

    @Test
    void shouldSatisfyTheFieldAxioms() {
        for (int a = 0; a < 256; a++) {
            assertEquals(a, Gf256.mul(a, 1));
            assertEquals(0, Gf256.mul(a, 0));
            assertEquals(0, Gf256.add(a, a), "every element is its own negative");
            if (a != 0) {
                assertEquals(1, Gf256.mul(a, Gf256.inv(a)), "inverse of " + a);
            }
            for (int b = 0; b < 256; b++) {
                assertEquals(Gf256.mul(a, b), Gf256.mul(b, a));
                if (b != 0) {
                    assertEquals(a, Gf256.mul(Gf256.div(a, b), b), a + " / " + b);
                }
            }
        }
        SplittableRandom rng = new SplittableRandom(1);
        for (int n = 0; n < 20_000; n++) {
            int a = rng.nextInt(256);
            int b = rng.nextInt(256);
            int c = rng.nextInt(256);
            assertEquals(Gf256.mul(a, Gf256.mul(b, c)), Gf256.mul(Gf256.mul(a, b), c), "associativity");
            assertEquals(Gf256.mul(a, b ^ c), Gf256.mul(a, b) ^ Gf256.mul(a, c), "distributivity");
        }
    }

    @Test
    void shouldRefuseDivisionByZero() {
        assertThrows(ArithmeticException.class, () -> Gf256.div(7, 0));
        assertThrows(ArithmeticException.class, () -> Gf256.inv(0));
        assertThrows(ArithmeticException.class, () -> Gf256.log(0));
    }

    @Test
    void shouldMultiplyAndAddWholeRows() {
        SplittableRandom rng = new SplittableRandom(2);
        for (int coefficient = 0; coefficient < 256; coefficient++) {
            byte[] src = new byte[37];
            byte[] dst = new byte[40];
            rng.nextBytes(src);
            rng.nextBytes(dst);
            byte[] expected = dst.clone();
            for (int i = 0; i < src.length; i++) {
                expected[i + 2] ^= (byte) Gf256.mul(coefficient, src[i] & 0xFF);
            }
            Gf256.mulAdd(dst, 2, src, 0, src.length, coefficient);
            assertArrayEquals(expected, dst, "coefficient " + coefficient);
        }
    }

    @Test
    void shouldUndoAMultiplyAddByRepeatingIt() {
        byte[] src = {1, 2, 3, (byte) 200};
        byte[] dst = {9, 8, 7, 6};
        Gf256.mulAdd(dst, 0, src, 0, 4, 0x53);
        assertNotEquals(9, dst[0]);
        Gf256.mulAdd(dst, 0, src, 0, 4, 0x53);
        assertArrayEquals(new byte[] {9, 8, 7, 6}, dst);
    }
}
