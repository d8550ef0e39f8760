package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.SplittableRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** {@link AesCtr} in place, at offsets and lengths of every kind, against the JDK's CTR over a copy, byte for byte. */
class AesCtrTest {
    private static final long SEED = 20_261_128L;

    private static byte[] jdk(byte[] key, byte[] iv, byte[] data) throws GeneralSecurityException {
        Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
        ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
        return ctr.doFinal(data);
    }

    @Test
    void shouldEqualTheJdksCounterModeForEveryLengthAndCarry() throws GeneralSecurityException {
        SplittableRandom random = new SplittableRandom(SEED);
        byte[] key = new byte[32];
        random.nextBytes(key);
        AesCtr ctr = new AesCtr(key, 70_000);
        int[] lengths = new int[260];
        for (int i = 0; i < 200; i++) {
            lengths[i] = i;
        }
        for (int i = 200; i < lengths.length; i++) {
            lengths[i] = 1 + random.nextInt(70_000);
        }
        for (int length : lengths) {
            byte[] iv = new byte[16];
            random.nextBytes(iv);
            if (length % 3 == 0) {
                // The low 64 bits about to wrap: the carry goes into the high 64, as in the JDK.
                Arrays.fill(iv, 8, 16, (byte) 0xFF);
                iv[15] = (byte) (0xFF - random.nextInt(4));
            }
            byte[] data = new byte[length + 7];
            random.nextBytes(data);
            byte[] plain = Arrays.copyOfRange(data, 3, 3 + length);
            ctr.apply(iv, 0, data, 3, length);
            assertArrayEquals(jdk(key, iv, plain), Arrays.copyOfRange(data, 3, 3 + length), "length " + length);
            ctr.apply(iv, 0, data, 3, length);
            assertArrayEquals(plain, Arrays.copyOfRange(data, 3, 3 + length), "applied twice: the plaintext again");
        }
    }

    @Test
    void shouldRefuseAMessageAboveItsMaxLength() {
        AesCtr ctr = new AesCtr(new byte[32], 100);
        assertThrows(IllegalArgumentException.class, () -> ctr.apply(new byte[16], 0, new byte[101], 0, 101));
        assertThrows(IllegalArgumentException.class, () -> new AesCtr(new byte[7], 100));
    }
}
