package io.ricochet.workload;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The payload of a workload message: who sent it, to which group, its index in that sender's stream to the group,
 * when it was sent, and a pattern every byte of which can be checked.
 *
 * <pre>
 *  0  magic "RCWL" (u32)      4  origin node (i32)       8  group (i32)
 * 12  index (u64)            20  sent at, epoch microseconds (u64)
 * 28  run tag (u64)          36  payload length (u32)   40  CRC-32 of bytes 0..39
 * 44  pattern: byte k is a pure function of (origin, group, index, k)
 * </pre>
 *
 * Big-endian. A payload is at least {@link #HEADER_LENGTH} bytes. {@link #decode} recomputes everything, so a
 * flipped bit, a truncated or padded payload, a payload delivered under the wrong (origin, group), or one left over
 * from an earlier run (another tag) is caught.
 */
public final class PayloadCodec {
    /** Bytes before the pattern: the smallest payload. */
    public static final int HEADER_LENGTH = 44;

    private static final int MAGIC = 0x5243574C;
    private static final int LENGTH_OFFSET = 36;
    private static final int CRC_OFFSET = 40;

    private PayloadCodec() {
    }

    /**
     * A checked payload's fields.
     *
     * @param origin       the node that sent it
     * @param group        the group it was sent to
     * @param index        its index in the sender's stream to that group, from 0
     * @param sentAtMicros the sender's wall clock at sending, in microseconds since the epoch
     * @param tag          the run tag
     */
    public record Header(int origin, int group, long index, long sentAtMicros, long tag) {
    }

    /** {@code size} bytes of payload: message {@code index} of {@code origin} to {@code group} in run {@code tag}. */
    public static byte[] encode(int origin, int group, long index, long sentAtMicros, long tag, int size) {
        if (size < HEADER_LENGTH) {
            throw new IllegalArgumentException("a workload payload needs at least " + HEADER_LENGTH + " bytes, not "
                    + size);
        }
        byte[] payload = new byte[size];
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        buffer.putInt(MAGIC).putInt(origin).putInt(group).putLong(index).putLong(sentAtMicros).putLong(tag)
                .putInt(size);
        buffer.putInt((int) crc(payload));
        fillPattern(payload, origin, group, index);
        return payload;
    }

    /**
     * Checks {@code payload}, delivered as a packet of {@code origin} in {@code group} during run {@code tag}.
     *
     * @return its header
     * @throws CorruptPayloadException saying what is wrong
     */
    public static Header decode(byte[] payload, int origin, int group, long tag) {
        if (payload.length < HEADER_LENGTH) {
            throw new CorruptPayloadException(payload.length + " bytes, shorter than the " + HEADER_LENGTH
                    + "-byte header");
        }
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        if (buffer.getInt(0) != MAGIC) {
            throw new CorruptPayloadException("bad magic");
        }
        if (buffer.getInt(CRC_OFFSET) != (int) crc(payload)) {
            throw new CorruptPayloadException("header checksum mismatch");
        }
        if (buffer.getInt(LENGTH_OFFSET) != payload.length) {
            throw new CorruptPayloadException(payload.length + " bytes, sent as " + buffer.getInt(LENGTH_OFFSET));
        }
        Header header = new Header(buffer.getInt(4), buffer.getInt(8), buffer.getLong(12), buffer.getLong(20),
                buffer.getLong(28));
        if (header.origin() != origin || header.group() != group) {
            throw new CorruptPayloadException("payload of (origin " + header.origin() + ", group " + header.group()
                    + ") delivered as (origin " + origin + ", group " + group + ")");
        }
        if (header.tag() != tag) {
            throw new CorruptPayloadException("stale: sent in run " + header.tag() + ", not in this run " + tag);
        }
        int bad = firstPatternMismatch(payload, origin, group, header.index());
        if (bad >= 0) {
            throw new CorruptPayloadException("pattern mismatch at byte " + bad + " of " + payload.length);
        }
        return header;
    }

    private static long crc(byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload, 0, CRC_OFFSET);
        return crc.getValue();
    }

    private static void fillPattern(byte[] payload, int origin, int group, long index) {
        long state = seed(origin, group, index);
        for (int k = HEADER_LENGTH; k < payload.length; k += Long.BYTES) {
            state = next(state);
            long word = mix(state);
            for (int b = 0; b < Long.BYTES && k + b < payload.length; b++) {
                payload[k + b] = (byte) (word >>> (8 * b));
            }
        }
    }

    /** The first byte of the pattern that differs from what it should be, or -1. */
    private static int firstPatternMismatch(byte[] payload, int origin, int group, long index) {
        byte[] expected = new byte[payload.length];
        fillPattern(expected, origin, group, index);
        int at = Arrays.mismatch(payload, HEADER_LENGTH, payload.length, expected, HEADER_LENGTH, expected.length);
        return at < 0 ? -1 : HEADER_LENGTH + at;
    }

    private static long seed(int origin, int group, long index) {
        return mix(((long) origin << 32 ^ (group & 0xFFFFFFFFL)) * 0x9E3779B97F4A7C15L ^ mix(index));
    }

    private static long next(long state) {
        return state + 0x9E3779B97F4A7C15L;
    }

    /** The SplitMix64 finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
