package io.ricochet.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA256 (RFC 2104) with one fixed key, over two reused {@link MessageDigest}s so that computing a tag
 * allocates nothing ({@code javax.crypto.Mac} allocates on every {@code doFinal}). Not thread-safe.
 */
final class HmacSha256 {
    static final int LENGTH = 32;
    private static final int BLOCK = 64;

    private final MessageDigest inner = sha256();
    private final MessageDigest outer = sha256();
    private final byte[] innerPad = new byte[BLOCK];
    private final byte[] outerPad = new byte[BLOCK];

    /** A key of at most one block (64 bytes), as the cluster's 32-byte keys are. */
    HmacSha256(byte[] key) {
        if (key.length > BLOCK) {
            throw new IllegalArgumentException("HMAC keys longer than " + BLOCK + " bytes are not supported");
        }
        for (int i = 0; i < BLOCK; i++) {
            byte k = i < key.length ? key[i] : 0;
            innerPad[i] = (byte) (k ^ 0x36);
            outerPad[i] = (byte) (k ^ 0x5c);
        }
    }

    /** Writes the 32-byte HMAC of {@code data[offset, offset + length)} to {@code out[outOffset...]}. */
    void mac(byte[] data, int offset, int length, byte[] out, int outOffset) {
        mac(data, offset, length, data, offset + length, 0, out, outOffset);
    }

    /**
     * Writes the 32-byte HMAC of the concatenation {@code a[aOffset, aOffset + aLength) | b[bOffset, bOffset +
     * bLength)} to {@code out[outOffset...]}: a frame and the start of a trailer held apart.
     */
    void mac(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength, byte[] out, int outOffset) {
        try {
            inner.update(innerPad);
            inner.update(a, aOffset, aLength);
            inner.update(b, bOffset, bLength);
            inner.digest(out, outOffset, LENGTH);
            outer.update(outerPad);
            outer.update(out, outOffset, LENGTH);
            outer.digest(out, outOffset, LENGTH);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException("SHA-256 refused a " + LENGTH + "-byte output", e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
