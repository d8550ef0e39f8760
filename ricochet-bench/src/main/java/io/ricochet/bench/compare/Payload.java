package io.ricochet.bench.compare;

import java.nio.ByteBuffer;

/**
 * The harness's message: a magic number, the sending member's id, its message counter (one count over all its
 * groups, so (sender, counter) names a message) and {@link System#nanoTime()} at send, padded with zeros to the
 * message size. Members on one host share that clock, so a receiver computes send-to-delivery latency directly.
 */
public final class Payload {
    /** Bytes of the header; the smallest message. */
    public static final int HEADER_LENGTH = 24;
    private static final int MAGIC = 0x52434A47;

    /** What a payload carries. */
    public record Stamp(int sender, long counter, long sentNs) {
    }

    private Payload() {
    }

    /**
     * A new payload of {@code size} bytes.
     *
     * @throws IllegalArgumentException if {@code size} is below {@link #HEADER_LENGTH}
     */
    public static byte[] encode(int sender, long counter, long sentNs, int size) {
        if (size < HEADER_LENGTH) {
            throw new IllegalArgumentException("message size " + size + " is below the harness's " + HEADER_LENGTH
                    + "-byte header");
        }
        byte[] bytes = new byte[size];
        ByteBuffer.wrap(bytes).putInt(MAGIC).putInt(sender).putLong(counter).putLong(sentNs);
        return bytes;
    }

    /** The stamp of {@code length} bytes at {@code offset}, or null if they are not a harness payload. */
    public static Stamp decode(byte[] bytes, int offset, int length) {
        if (bytes == null || offset < 0 || length < HEADER_LENGTH || offset > bytes.length - length) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        if (buffer.getInt() != MAGIC) {
            return null;
        }
        return new Stamp(buffer.getInt(), buffer.getLong(), buffer.getLong());
    }

    /** {@link #decode(byte[], int, int)} of a whole array. */
    public static Stamp decode(byte[] bytes) {
        return bytes == null ? null : decode(bytes, 0, bytes.length);
    }
}
