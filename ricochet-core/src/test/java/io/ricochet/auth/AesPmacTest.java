package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * PMAC-AES against the test vectors of Rogaway's reference implementation (as published with miscreant's PMAC-SIV,
 * vectors/aes_pmac.tjson), for AES-128 and AES-256: an empty message, a short last block, one full block, a full
 * block and a short one, two full blocks, and 1000 zero bytes (62 blocks, offsets up to L(5)).
 */
class AesPmacTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String KEY_128 = "000102030405060708090a0b0c0d0e0f";
    private static final String KEY_256 = KEY_128 + "101112131415161718191a1b1c1d1e1f";

    private static byte[] counting(int length) {
        byte[] m = new byte[length];
        for (int i = 0; i < length; i++) {
            m[i] = (byte) i;
        }
        return m;
    }

    private static void check(String key, byte[] message, String tag) {
        byte[] out = new byte[AesPmac.TAG_LENGTH];
        new AesPmac(HEX.parseHex(key), 2000).mac(message, 0, message.length, out, 0);
        assertArrayEquals(HEX.parseHex(tag), out, message.length + " bytes");
    }

    @Test
    void shouldMatchTheReferenceVectorsForAes128() {
        check(KEY_128, counting(0), "4399572cd6ea5341b8d35876a7098af7");
        check(KEY_128, counting(3), "256ba5193c1b991b4df0c51f388a9e27");
        check(KEY_128, counting(16), "ebbd822fa458daf6dfdad7c27da76338");
        check(KEY_128, counting(20), "0412ca150bbf79058d8c75a58c993f55");
        check(KEY_128, counting(32), "e97ac04e9e5e3399ce5355cd7407bc75");
        check(KEY_128, counting(34), "5cba7d5eb24f7c86ccc54604e53d5512");
        check(KEY_128, new byte[1000], "c2c9fa1d9985f6f0d2aff915a0e8d910");
    }

    @Test
    void shouldMatchTheReferenceVectorsForAes256() {
        check(KEY_256, counting(0), "e620f52fe75bbe87ab758c0624943d8b");
        check(KEY_256, counting(3), "ffe124cc152cfb2bf1ef5409333c1c9a");
        check(KEY_256, counting(16), "853fdbf3f91dcd36380d698a64770bab");
        check(KEY_256, counting(20), "7711395fbe9dec19861aeb96e052cd1b");
        check(KEY_256, counting(32), "08fa25c28678c84d383130653e77f4c0");
        check(KEY_256, counting(34), "edd8a05f4b66761f9eee4feb4ed0c3a1");
        check(KEY_256, new byte[1000], "69aa77f231eb0cdff960f5561d29a96e");
    }

    @Test
    void shouldGiveTheSameTagWhereverTheMessageIsCutInTwo() {
        SplittableRandom random = new SplittableRandom(2002);
        byte[] key = new byte[32];
        random.nextBytes(key);
        AesPmac pmac = new AesPmac(key, 1600);
        for (int length : new int[] {0, 1, 15, 16, 17, 31, 32, 33, 1061, 1456, 1600}) {
            byte[] m = new byte[length];
            random.nextBytes(m);
            byte[] whole = new byte[16];
            pmac.mac(m, 0, length, whole, 0);
            for (int cut = 0; cut <= length; cut += 1 + length / 40) {
                byte[] tail = new byte[length - cut + 3];
                System.arraycopy(m, cut, tail, 3, length - cut);
                byte[] split = new byte[20];
                pmac.mac(m, 0, cut, tail, 3, length - cut, split, 4);
                assertArrayEquals(whole, Arrays.copyOfRange(split, 4, 20), "length " + length + ", cut " + cut);
            }
        }
    }

    @Test
    void shouldChangeTheTagForAnyFlippedBitOrOtherKey() {
        SplittableRandom random = new SplittableRandom(7);
        byte[] key = new byte[32];
        random.nextBytes(key);
        byte[] other = key.clone();
        other[31] ^= 1;
        byte[] m = new byte[1456];
        random.nextBytes(m);
        byte[] tag = new byte[16];
        AesPmac pmac = new AesPmac(key, m.length);
        pmac.mac(m, 0, m.length, tag, 0);
        byte[] t = new byte[16];
        for (int bit = 0; bit < 8 * m.length; bit += 13) {
            m[bit >>> 3] ^= (byte) (1 << (bit & 7));
            pmac.mac(m, 0, m.length, t, 0);
            m[bit >>> 3] ^= (byte) (1 << (bit & 7));
            assertFalse(Arrays.equals(tag, t), "bit " + bit);
        }
        new AesPmac(other, m.length).mac(m, 0, m.length, t, 0);
        assertFalse(Arrays.equals(tag, t), "another key");
        pmac.mac(m, 0, m.length - 1, t, 0);
        assertFalse(Arrays.equals(tag, t), "one byte shorter");
    }

    @Test
    void shouldRefuseAMessageLongerThanItsMaxLength() {
        AesPmac pmac = new AesPmac(new byte[16], 100);
        assertThrows(IllegalArgumentException.class, () -> pmac.mac(new byte[101], 0, 101, new byte[16], 0));
    }
}
