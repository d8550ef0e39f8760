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
        Generator g = new Generator(origin, group, seqno);
        for (int i = 0; i < length; i++) {
            dst[offset + i] = g.next();
        }
    }

    /** True if {@code src[offset, offset + length)} is exactly the payload of (origin, group, seqno). */
    public static boolean matches(byte[] src, int offset, int length, int origin, int group, long seqno,
                                  int expectedLength) {
        if (length != expectedLength) {
            return false;
        }
        Generator g = new Generator(origin, group, seqno);
        for (int i = 0; i < length; i++) {
            if (src[offset + i] != g.next()) {
                return false;
            }
        }
        return true;
    }

    /** The byte stream of one packet id: SplitMix64 words, low byte first. */
    private static final class Generator {
        private long state;
        private long word;
        private int left;

        Generator(int origin, int group, long seqno) {
            state = seed(origin, group, seqno);
        }

        byte next() {
            if (left == 0) {
                state += 0x9E3779B97F4A7C15L;
                word = mix(state);
                left = 8;
            }
            byte b = (byte) word;
            word >>>= 8;
            left--;
            return b;
        }
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
