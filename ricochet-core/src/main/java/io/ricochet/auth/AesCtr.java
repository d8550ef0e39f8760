package io.ricochet.auth;

import java.security.GeneralSecurityException;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES in counter mode (NIST SP 800-38A) through the JDK's {@code AES/CTR/NoPadding}, in place: keystream block i is
 * AES(IV + i), the 16-byte IV read as one big-endian 128-bit number. The JDK runs it on one intrinsic that encrypts
 * the counters and XORs them in, many blocks at a time on the CPU's AES instructions. Each message needs its own
 * {@code init} (a new IV), which allocates about 128 bytes; the output goes to a scratch buffer and is copied back,
 * since the JDK's in-place CTR copies the whole input first (1.6 KB per 1 435 bytes).
 *
 * <p>Measured alternatives, same JDK and host: the keystream from one {@code AES/ECB} call over the counter blocks,
 * XORed in by a Java loop, allocates nothing but took 750-900 ns per 1 435 bytes against about 300-350 ns here (the
 * loop after the ECB call ran scalar).
 *
 * <p>Not thread-safe.
 */
public final class AesCtr {
    /** Bytes of an IV (one AES block). */
    public static final int IV_LENGTH = 16;

    private final Cipher ctr;
    private final SecretKey key;
    private final int maxLength;
    private final byte[] out;

    /**
     * @param key       an AES key: 16, 24 or 32 bytes (copied into the JDK's key spec)
     * @param maxLength the longest message this instance will be asked to encrypt
     */
    public AesCtr(byte[] key, int maxLength) {
        if (maxLength < 0) {
            throw new IllegalArgumentException("max length " + maxLength);
        }
        try {
            this.key = new SecretKeySpec(key, "AES");
            ctr = Cipher.getInstance("AES/CTR/NoPadding");
            ctr.init(Cipher.ENCRYPT_MODE, this.key, new IvParameterSpec(new byte[IV_LENGTH]));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("AES refused the key (" + key.length + " bytes)", e);
        }
        this.maxLength = maxLength;
        this.out = new byte[maxLength];
    }

    /**
     * XORs the keystream of {@code iv[ivOffset, + 16)} into {@code data[offset, offset + length)}, in place: encrypts
     * plaintext, decrypts ciphertext.
     *
     * @throws IllegalArgumentException if {@code length} is above this instance's max length
     */
    public void apply(byte[] iv, int ivOffset, byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(ivOffset, IV_LENGTH, iv.length);
        Objects.checkFromIndexSize(offset, length, data.length);
        if (length > maxLength) {
            throw new IllegalArgumentException("message of " + length + " bytes, above " + maxLength);
        }
        if (length == 0) {
            return;
        }
        try {
            ctr.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv, ivOffset, IV_LENGTH));
            int written = ctr.doFinal(data, offset, length, out, 0);
            System.arraycopy(out, 0, data, offset, written);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR refused a message it was built for", e);
        }
    }
}
