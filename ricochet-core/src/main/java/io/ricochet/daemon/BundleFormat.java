package io.ricochet.daemon;

import io.ricochet.api.MessageId;

/**
 * The payload of every DATA packet a daemon sends: the application's messages, one or several (docs/api.md,
 * "Message ids"; docs/design/daemon.md, "Bundling"). It is the engine's payload, so XOR recovery and NAK
 * retransmission carry it untouched. The first byte is the kind: {@link #SINGLE}, then one message, the rest of
 * the payload; or {@link #BUNDLE}, then one or more {@code [u16 length][bytes]} entries that fill the payload
 * exactly (a daemon writes a lone message as SINGLE); or {@link #FRAGMENT}, then {@code [u32 count][u32 index]}
 * and a piece of one message too large for a datagram, cut into {@code count} pieces sent as consecutive datagrams
 * of the stream (docs/design/daemon.md, "Fragmentation"). Anything else is malformed, and the datagram's messages
 * are reported lost (never some delivered and the datagram lost). Stateless.
 */
public final class BundleFormat {
    public static final byte SINGLE = 0x00;
    public static final byte BUNDLE = 0x01;
    public static final byte FRAGMENT = 0x02;
    /** Bytes before a fragment's piece: the kind, the count of fragments and this one's index. */
    public static final int FRAGMENT_HEADER = 9;
    /** Bytes of the kind. */
    static final int KIND = 1;
    /** Bytes of the length before each message of a bundle. */
    static final int LENGTH = 2;
    /** Returned by {@link #count} for a payload that is not in this format. */
    static final int MALFORMED = -1;

    /** Receives the messages of a datagram, in order; the bytes are valid only during the call. */
    interface Messages {
        void message(int index, byte[] buffer, int offset, int length);
    }

    private BundleFormat() {
    }

    /**
     * The most messages of {@code messageBytes} each that one datagram of at most {@code bundleBytes} carries (the
     * daemon's {@code bundle-bytes}; at least 1: a lone message always goes, as SINGLE): how many accepted messages
     * the datagram a daemon is filling can hold before it is sent ({@link Bundler}).
     */
    public static int messagesPerDatagram(int bundleBytes, int messageBytes) {
        return Math.max(1, Math.min(MessageId.PER_DATAGRAM, (bundleBytes - KIND) / (LENGTH + messageBytes)));
    }

    /** How many messages the payload holds, or {@link #MALFORMED}. Reads nothing beyond it. */
    static int count(byte[] buffer, int offset, int length) {
        if (length < KIND) {
            return MALFORMED;
        }
        if (buffer[offset] == SINGLE) {
            return 1;
        }
        if (buffer[offset] != BUNDLE) {
            return MALFORMED;
        }
        int count = 0;
        int at = offset + KIND;
        int end = offset + length;
        while (at < end) {
            if (end - at < LENGTH || count == MessageId.PER_DATAGRAM) {
                return MALFORMED;
            }
            at += LENGTH + u16(buffer, at);
            count++;
        }
        // The lengths add up exactly; an empty bundle carries nothing a sender would send.
        return at == end && count > 0 ? count : MALFORMED;
    }

    /** Whether the payload is a fragment (its header is checked by {@link #fragmentCount}, {@link #fragmentIndex}). */
    static boolean isFragment(byte[] buffer, int offset, int length) {
        return length >= KIND && buffer[offset] == FRAGMENT;
    }

    /**
     * The count of fragments a fragment's header gives, or {@link #MALFORMED} if the header is cut short or not
     * consistent: at least 2 fragments, its index below the count, at most {@code maxCount}, and a piece of at least
     * one byte.
     */
    static int fragmentCount(byte[] buffer, int offset, int length, int maxCount) {
        if (length <= FRAGMENT_HEADER) {
            return MALFORMED;
        }
        int count = i32(buffer, offset + KIND);
        int index = i32(buffer, offset + KIND + 4);
        return count >= 2 && count <= maxCount && index >= 0 && index < count ? count : MALFORMED;
    }

    /** A fragment's index, once {@link #fragmentCount} accepted its header. */
    static int fragmentIndex(byte[] buffer, int offset) {
        return i32(buffer, offset + KIND + 4);
    }

    /** Writes a fragment's header at {@code offset}. */
    static void writeFragmentHeader(byte[] buffer, int offset, int count, int index) {
        buffer[offset] = FRAGMENT;
        writeI32(buffer, offset + KIND, count);
        writeI32(buffer, offset + KIND + 4, index);
    }

    /** How many fragments a message of {@code size} bytes takes in datagrams of {@code maxPayload} bytes. */
    static int fragmentsOf(int size, int maxPayload) {
        int piece = maxPayload - FRAGMENT_HEADER;
        return (int) ((size + (long) piece - 1) / piece);
    }

    /** Hands each message of a payload {@link #count} accepted to {@code to}; returns how many. */
    static int forEach(byte[] buffer, int offset, int length, Messages to) {
        if (buffer[offset] == SINGLE) {
            to.message(0, buffer, offset + KIND, length - KIND);
            return 1;
        }
        int index = 0;
        int end = offset + length;
        for (int at = offset + KIND; at < end; index++) {
            int size = u16(buffer, at);
            to.message(index, buffer, at + LENGTH, size);
            at += LENGTH + size;
        }
        return index;
    }

    /** Writes {@code length} as the u16 before a message, at {@code offset}. */
    static void writeLength(byte[] buffer, int offset, int length) {
        buffer[offset] = (byte) (length >>> 8);
        buffer[offset + 1] = (byte) length;
    }

    private static int i32(byte[] buffer, int offset) {
        return (buffer[offset] & 0xff) << 24 | (buffer[offset + 1] & 0xff) << 16 | (buffer[offset + 2] & 0xff) << 8
                | buffer[offset + 3] & 0xff;
    }

    private static void writeI32(byte[] buffer, int offset, int value) {
        buffer[offset] = (byte) (value >>> 24);
        buffer[offset + 1] = (byte) (value >>> 16);
        buffer[offset + 2] = (byte) (value >>> 8);
        buffer[offset + 3] = (byte) value;
    }

    private static int u16(byte[] buffer, int offset) {
        return (buffer[offset] & 0xff) << 8 | buffer[offset + 1] & 0xff;
    }
}
