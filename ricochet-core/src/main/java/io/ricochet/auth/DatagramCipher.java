package io.ricochet.auth;

import io.ricochet.wire.HeaderFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The payload encryption of one cluster key, when the cluster encrypts (docs/design/security.md, "Encryption"):
 * AES-256 in counter mode under a key derived once from the cluster key, its IV the datagram's tag.
 *
 * <pre>
 * E          = HMAC-SHA256(cluster key, "ricochet datagram encryption: AES-256-CTR key")   (once per key)
 * ciphertext = AES-256-CTR(E, IV = tag, frame after its header)
 * </pre>
 *
 * The tag is PMAC over the plaintext frame, the receiver's id where bound, the key id and the counter
 * ({@link DatagramAuth}), so this is the SIV construction (Rogaway and Shrimpton, "Deterministic Authenticated-
 * Encryption", EUROCRYPT 2006) with PMAC as its PRF: the IV needs no nonce from the sender, two datagrams share an IV
 * only if they share frame, counter and receiver (a replay, which the window refuses), and a repeated counter (a clock
 * stepped back across a restart) reveals at most that two datagrams were equal, never their contents. Not
 * thread-safe; each call allocates about 128 bytes (the JDK's CTR needs an {@code init} per IV: {@link AesCtr}).
 */
final class DatagramCipher {
    private static final byte[] LABEL =
            "ricochet datagram encryption: AES-256-CTR key".getBytes(StandardCharsets.US_ASCII);

    private final AesCtr ctr;

    /** @param clusterKey a 32-byte cluster key; the cipher's key is derived from it here, once */
    DatagramCipher(byte[] clusterKey) {
        byte[] k = new byte[HmacSha256.LENGTH];
        new HmacSha256(clusterKey).mac(LABEL, 0, LABEL.length, k, 0);
        ctr = new AesCtr(k, HeaderFlyweight.MAX_FRAME_LENGTH);
        Arrays.fill(k, (byte) 0);
    }

    /**
     * Encrypts or decrypts, in place, the frame in {@code buf[frameOffset, + frameLength)} after its header, with
     * the tag at {@code tag[tagOffset, + 16)} as the IV.
     */
    void apply(byte[] buf, int frameOffset, int frameLength, byte[] tag, int tagOffset) {
        ctr.apply(tag, tagOffset, buf, frameOffset + HeaderFlyweight.HEADER_LENGTH,
                frameLength - HeaderFlyweight.HEADER_LENGTH);
    }

    /** Whether frames of {@code type} are encrypted: all but failure detection's, which detectors also send. */
    static boolean encrypts(int type) {
        return type != io.ricochet.wire.FrameType.HEARTBEAT && type != io.ricochet.wire.FrameType.HEARTBEAT_ACK;
    }
}
