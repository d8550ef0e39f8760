package io.ricochet.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Poly1305 against RFC 8439 (section 2.5.2 and the edge cases of appendix A.3) and a BigInteger reference. */
class Poly1305Test {
    private static final HexFormat HEX = HexFormat.of();
    private static final BigInteger P = BigInteger.ONE.shiftLeft(130).subtract(BigInteger.valueOf(5));

    private static byte[] tag(byte[] key, byte[] message) {
        byte[] out = new byte[Poly1305.TAG_LENGTH];
        new Poly1305().init(key, 0).update(message, 0, message.length).finish(out, 0);
        return out;
    }

    private static void check(String key, String message, String tag) {
        assertArrayEquals(HEX.parseHex(tag), tag(HEX.parseHex(key), HEX.parseHex(message)), message);
    }

    @Test
    void shouldMatchRfc8439Section252() {
        byte[] key = HEX.parseHex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        byte[] message = "Cryptographic Forum Research Group".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(HEX.parseHex("a8061dc1305136c6c22b8baf0c0127a9"), tag(key, message));
    }

    @Test
    void shouldMatchRfc8439AppendixA3() {
        String zero16 = "00".repeat(16);
        // #1: all-zero key and message
        check(zero16 + zero16, "00".repeat(64), zero16);
        // #2 and #3: r = 0 or s = 0 over the IETF boilerplate
        String text = HEX.formatHex(("Any submission to the IETF intended by the Contributor for publication as all"
                + " or part of an IETF Internet-Draft or RFC and any statement made within the context of an IETF"
                + " activity is considered an \"IETF Contribution\". Such statements include oral statements in IETF"
                + " sessions, as well as written and electronic communications made at any time or place, which are"
                + " addressed to").getBytes(StandardCharsets.US_ASCII));
        check(zero16 + "36e5f6b5c5e06070f0efca96227a863e", text, "36e5f6b5c5e06070f0efca96227a863e");
        check("36e5f6b5c5e06070f0efca96227a863e" + zero16, text, "f3477e7cd95417af89a6b8794c310cf0");
        // #5 to #11: the reduction's edge cases
        String r2 = "02" + "00".repeat(15);
        String r1 = "01" + "00".repeat(15);
        String ff16 = "ff".repeat(16);
        check(r2 + zero16, ff16, "03" + "00".repeat(15));
        check(r2 + ff16, r2, "03" + "00".repeat(15));
        check(r1 + zero16, ff16 + "f0" + "ff".repeat(15) + "11" + "00".repeat(15), "05" + "00".repeat(15));
        check(r1 + zero16, ff16 + "fb" + "fe".repeat(15) + "01".repeat(16), zero16);
        check(r2 + zero16, "fd" + "ff".repeat(15), "faffffffffffffffffffffffffffffff");
        String r10 = "0100000000000000" + "0400000000000000";
        String m10 = "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000"
                + "000000000001000000000000000000000000000000";
        check(r10 + zero16, m10, "14000000000000005500000000000000");
        check(r10 + zero16, m10.substring(0, 96), "13000000000000000000000000000000");
    }

    @Test
    void shouldEqualTheDefinitionForRandomKeysAndLengthsInAnyPieces() {
        SplittableRandom random = new SplittableRandom(8439);
        Poly1305 poly = new Poly1305();
        for (int trial = 0; trial < 2000; trial++) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            if (trial % 7 == 0) {
                java.util.Arrays.fill(key, 0, 16, (byte) 0xff); // largest clamped r
            }
            byte[] message = new byte[random.nextInt(trial < 1000 ? 80 : 1600)];
            random.nextBytes(message);
            if (trial % 5 == 0) {
                java.util.Arrays.fill(message, (byte) 0xff); // carries everywhere
            }
            byte[] out = new byte[Poly1305.TAG_LENGTH];
            poly.init(key, 0);
            int at = 0;
            while (at < message.length) {
                int piece = Math.min(message.length - at, random.nextInt(40));
                poly.update(message, at, piece);
                at += piece;
            }
            poly.finish(out, 0);
            assertArrayEquals(reference(key, message), out, "trial " + trial + ", length " + message.length);
        }
    }

    /** RFC 8439 2.5.1, with BigInteger. */
    private static byte[] reference(byte[] key, byte[] message) {
        byte[] rBytes = key.clone();
        for (int i : new int[] {3, 7, 11, 15}) {
            rBytes[i] &= 15;
        }
        for (int i : new int[] {4, 8, 12}) {
            rBytes[i] &= (byte) 252;
        }
        BigInteger r = littleEndian(rBytes, 0, 16);
        BigInteger s = littleEndian(key, 16, 16);
        BigInteger acc = BigInteger.ZERO;
        for (int i = 0; i < message.length; i += 16) {
            int n = Math.min(16, message.length - i);
            BigInteger block = littleEndian(message, i, n).setBit(8 * n);
            acc = acc.add(block).multiply(r).mod(P);
        }
        BigInteger tag = acc.add(s);
        byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = tag.shiftRight(8 * i).byteValue();
        }
        return out;
    }

    private static BigInteger littleEndian(byte[] b, int offset, int length) {
        byte[] big = new byte[length + 1];
        for (int i = 0; i < length; i++) {
            big[length - i] = b[offset + i];
        }
        return new BigInteger(big);
    }
}
