package io.ricochet.auth;

import io.ricochet.wire.HeaderFlyweight;
import java.util.Objects;

/**
 * Authenticates datagrams with the cluster's keys: {@link #seal} appends a trailer after a frame, {@link #open}
 * checks it before anything else reads the frame.
 *
 * <pre>
 * datagram = frame | key id (1 byte) | tag (16 bytes)
 * tag      = HMAC-SHA256(key[key id], frame | key id), first 16 bytes
 * </pre>
 *
 * The frame is sealed with the keys' send key ({@link ClusterKeys#sendKeyId}); any key of {@link ClusterKeys} opens.
 * HMAC-SHA256 needs no nonce, so any number of senders can share a key. The algorithm was chosen by measurement
 * (docs/design/security.md, "Cost"). Tags are compared in constant time. After construction no call allocates.
 *
 * <p>Not thread-safe: one instance per thread (each holds its own digest state and scratch buffer).
 */
public final class DatagramAuth implements FrameGuard {
    /** Bytes of the tag: HMAC-SHA256 truncated to 128 bits. */
    public static final int TAG_LENGTH = 16;
    /** Bytes {@link #seal} appends: the key id, then the tag. */
    public static final int TRAILER_LENGTH = 1 + TAG_LENGTH;
    /** Largest datagram: a frame of {@link HeaderFlyweight#MAX_FRAME_LENGTH} bytes and its trailer. */
    public static final int MAX_DATAGRAM_LENGTH = HeaderFlyweight.MAX_FRAME_LENGTH + TRAILER_LENGTH;

    /** {@link #open}: shorter than a frame header and a trailer. */
    public static final int TOO_SHORT = -1;
    /** {@link #open}: the key id is not one of the cluster's keys. */
    public static final int UNKNOWN_KEY = -2;
    /** {@link #open}: the tag does not match (forged, corrupted, or sealed with another key of the same id). */
    public static final int BAD_TAG = -3;
    /** {@link #open}: longer than {@link #MAX_DATAGRAM_LENGTH}; refused before any MAC work. */
    public static final int TOO_LONG = -4;

    private final int sendKeyId;
    private final HmacSha256 sendMac;
    private final HmacSha256[] macById = new HmacSha256[ClusterKeys.MAX_ID + 1];
    private final byte[] tag = new byte[HmacSha256.LENGTH];

    public DatagramAuth(ClusterKeys keys) {
        for (int id : keys.keyIds()) {
            macById[id] = new HmacSha256(keys.key(id));
        }
        sendKeyId = keys.sendKeyId();
        sendMac = macById[sendKeyId];
    }

    /**
     * Appends the trailer to the frame in {@code buf[offset, offset + frameLength)} and returns the datagram's
     * length, {@code frameLength + TRAILER_LENGTH}. The caller leaves {@link #TRAILER_LENGTH} bytes of room after the
     * frame: a buffer of {@link #MAX_DATAGRAM_LENGTH} bytes holds any frame.
     *
     * @throws IllegalArgumentException if {@code frameLength} is outside [header length, MAX_FRAME_LENGTH]
     * @throws IndexOutOfBoundsException if the datagram does not fit in {@code buf}
     */
    @Override
    public int seal(byte[] buf, int offset, int frameLength) {
        if (frameLength < HeaderFlyweight.HEADER_LENGTH || frameLength > HeaderFlyweight.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("frame length " + frameLength + " is outside "
                    + HeaderFlyweight.HEADER_LENGTH + ".." + HeaderFlyweight.MAX_FRAME_LENGTH);
        }
        Objects.checkFromIndexSize(offset, frameLength + TRAILER_LENGTH, buf.length);
        int idOffset = offset + frameLength;
        buf[idOffset] = (byte) sendKeyId;
        sendMac.mac(buf, offset, frameLength + 1, tag, 0);
        System.arraycopy(tag, 0, buf, idOffset + 1, TAG_LENGTH);
        return frameLength + TRAILER_LENGTH;
    }

    /**
     * Checks the datagram in {@code buf[offset, offset + datagramLength)}: returns the length of the frame it
     * carries (from {@code offset}, trailer stripped) if its key id is known and its tag verifies, else
     * {@link #TOO_SHORT}, {@link #TOO_LONG}, {@link #UNKNOWN_KEY} or {@link #BAD_TAG}. Never throws for any bytes.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code buf}
     */
    @Override
    public int open(byte[] buf, int offset, int datagramLength) {
        return check(buf, offset, datagramLength);
    }

    /**
     * Whether the datagram in {@code buf[offset, offset + datagramLength)} carries a valid trailer for its frame: the
     * check of {@link #open} alone, for a datagram rebuilt from a stored seal ({@link DataSeals}).
     */
    boolean isAuthentic(byte[] buf, int offset, int datagramLength) {
        return check(buf, offset, datagramLength) >= 0;
    }

    private int check(byte[] buf, int offset, int datagramLength) {
        Objects.checkFromIndexSize(offset, datagramLength, buf.length);
        int frameLength = datagramLength - TRAILER_LENGTH;
        if (frameLength < HeaderFlyweight.HEADER_LENGTH) {
            return TOO_SHORT;
        }
        if (datagramLength > MAX_DATAGRAM_LENGTH) {
            return TOO_LONG;
        }
        int idOffset = offset + frameLength;
        HmacSha256 mac = macById[buf[idOffset] & 0xFF];
        if (mac == null) {
            return UNKNOWN_KEY;
        }
        mac.mac(buf, offset, frameLength + 1, tag, 0);
        int diff = 0;
        for (int i = 0; i < TAG_LENGTH; i++) {
            diff |= tag[i] ^ buf[idOffset + 1 + i];
        }
        return diff == 0 ? frameLength : BAD_TAG;
    }

    /** A short name for a negative result of {@link #open}, for logs and counters. */
    public static String reason(int openResult) {
        switch (openResult) {
            case TOO_SHORT:
                return "too short";
            case TOO_LONG:
                return "too long";
            case UNKNOWN_KEY:
                return "unknown key id";
            case BAD_TAG:
                return "bad tag";
            default:
                return openResult >= 0 ? "ok" : "unknown reason " + openResult;
        }
    }

    @Override
    public String toString() {
        return "DatagramAuth[HMAC-SHA256/128, send key " + sendKeyId + "]";
    }
}
