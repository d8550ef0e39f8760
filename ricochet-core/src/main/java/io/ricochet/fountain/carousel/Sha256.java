package io.ricochet.fountain.carousel;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of a byte range; every Java platform has it. */
final class Sha256 {
    private Sha256() {
    }

    static byte[] of(byte[] bytes, int offset, int length) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(bytes, offset, length);
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java platform lacks SHA-256, which every one must have", e);
        }
    }
}
