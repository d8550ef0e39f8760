package io.ricochet.auth;

import io.ricochet.wire.HeaderFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The MAC of one cluster key (docs/design/security.md, "Every datagram authenticated"): PMAC over AES-256
 * ({@link AesPmac}) with a key derived once from the cluster key.
 *
 * <pre>
 * K   = HMAC-SHA256(cluster key, "ricochet datagram MAC: PMAC-AES-256 key")   (once per key)
 * tag = PMAC-AES-256(K, frame | key id | counter)                             (16 bytes)
 * </pre>
 *
 * PMAC is deterministic and needs no nonce: like HMAC, any number of senders can share the key, whatever their ids
 * and clocks. The derivation keeps the AES key apart from the cluster key itself (which also keys HMAC-SHA256 here).
 * Not thread-safe; after construction no call allocates. Each instance holds about 192 KiB (PMAC's offsets and two
 * scratch buffers for the largest frame).
 */
final class DatagramMac {
    static final int TAG_LENGTH = AesPmac.TAG_LENGTH;
    /** The longest message: the largest frame, a receiver's id, the key id and the counter. */
    static final int MAX_MESSAGE_LENGTH = HeaderFlyweight.MAX_FRAME_LENGTH + 4 + DatagramAuth.MAC_TRAILER_LENGTH;

    private static final byte[] LABEL = "ricochet datagram MAC: PMAC-AES-256 key".getBytes(StandardCharsets.US_ASCII);

    private final AesPmac pmac;

    /** @param clusterKey a 32-byte cluster key; the MAC's key is derived from it here, once */
    DatagramMac(byte[] clusterKey) {
        byte[] k = new byte[HmacSha256.LENGTH];
        new HmacSha256(clusterKey).mac(LABEL, 0, LABEL.length, k, 0);
        pmac = new AesPmac(k, MAX_MESSAGE_LENGTH);
        Arrays.fill(k, (byte) 0);
    }

    /**
     * Writes the 16-byte tag of the frame in {@code frame[frameOffset, + frameLength)} followed by the trailer's key
     * id and counter, {@code trailer[trailerOffset, + 9)}, to {@code out[outOffset...]} (which may be the bytes
     * right after them).
     */
    void tag(byte[] frame, int frameOffset, int frameLength, byte[] trailer, int trailerOffset, byte[] out,
             int outOffset) {
        tag(frame, frameOffset, frameLength, trailer, trailerOffset, DatagramAuth.MAC_TRAILER_LENGTH, out, outOffset);
    }

    /** As above, with {@code tail[tailOffset, + tailLength)} after the frame instead of the trailer's first bytes. */
    void tag(byte[] frame, int frameOffset, int frameLength, byte[] tail, int tailOffset, int tailLength, byte[] out,
             int outOffset) {
        pmac.mac(frame, frameOffset, frameLength, tail, tailOffset, tailLength, out, outOffset);
    }
}
