package io.ricochet.sim;

/**
 * Deterministic payload bytes for a packet id, so every delivered or recovered payload can be checked against
 * what its sender sent without keeping copies: a SplitMix64 stream seeded by the id.
 */
public final class Payloads {
    private Payloads() {
    }

    /** Fills {@code dst[offset, offset + length)} with the payload of (origin, group, seqno). */
    public static void fill(byte[] dst, int offset, int length, int origin, int group, long seqno) {
        long state = seed(origin, group, seqno);
        int i = 0;
        while (i < length) {
            state += 0x9E3779B97F4A7C15L;
            long word = mix(state);
            for (int b = 0; b < 8 && i < length; b++, i++) {
                dst[offset + i] = (byte) (word >>> (b * 8));
            }
        }
    }

    /** True if {@code src[offset, offset + length)} is exactly the payload of (origin, group, seqno). */
    public static boolean matches(byte[] src, int offset, int length, int origin, int group, long seqno,
                                  int expectedLength) {
        if (length != expectedLength) {
            return false;
        }
        long state = seed(origin, group, seqno);
        int i = 0;
        while (i < length) {
            state += 0x9E3779B97F4A7C15L;
            long word = mix(state);
            for (int b = 0; b < 8 && i < length; b++, i++) {
                if (src[offset + i] != (byte) (word >>> (b * 8))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static long seed(int origin, int group, long seqno) {
        return mix(mix(((long) origin << 32) ^ (group & 0xFFFFFFFFL)) ^ seqno);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
