package io.ricochet.support;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What the fuzz tests share: how many inputs a run feeds each target ({@code -Dricochet.fuzz.inputs=N}, for the long
 * run docs/design/security.md describes), the seed ({@code -Dricochet.fuzz.seed=N}), and the byte mutations they
 * apply to valid inputs. Every mutation is drawn from the caller's seeded generator, so a failure replays.
 */
public final class Fuzz {
    /** The property that raises (or lowers) the inputs per target. */
    public static final String INPUTS_PROPERTY = "ricochet.fuzz.inputs";

    private Fuzz() {
    }

    /** The inputs a target runs: {@code -Dricochet.fuzz.inputs} if set, else {@code defaultCount}. */
    public static int inputs(int defaultCount) {
        return Integer.getInteger(INPUTS_PROPERTY, defaultCount);
    }

    /** The seed: {@code -Dricochet.fuzz.seed} if set, else {@code defaultSeed}. */
    public static long seed(long defaultSeed) {
        return Long.getLong("ricochet.fuzz.seed", defaultSeed);
    }

    /**
     * {@code in} with one random mutation: a bit flipped, a byte set to 0, 0xFF or anything, a 16- or 32-bit field
     * overwritten (a length or count changed), truncated, extended with garbage, a range duplicated or removed, or
     * spliced with {@code other} (the head of one, the tail of the other). Never modifies {@code in}.
     */
    public static byte[] mutate(SplittableRandom rng, byte[] in, byte[] other) {
        byte[] out = in.clone();
        int n = out.length;
        switch (rng.nextInt(10)) {
            case 0 -> {
                if (n > 0) {
                    out[rng.nextInt(n)] ^= (byte) (1 << rng.nextInt(8));
                }
            }
            case 1 -> {
                if (n > 0) {
                    int pick = rng.nextInt(3);
                    out[rng.nextInt(n)] = (byte) (pick == 0 ? 0 : pick == 1 ? 0xFF : rng.nextInt(256));
                }
            }
            case 2 -> {
                if (n > 1) {
                    int at = rng.nextInt(n - 1);
                    int value = rng.nextBoolean() ? rng.nextInt(1 << 16) : rng.nextInt(8) - 4 + u16(out, at);
                    out[at] = (byte) (value >>> 8);
                    out[at + 1] = (byte) value;
                }
            }
            case 3 -> {
                if (n > 3) {
                    int at = rng.nextInt(n - 3);
                    int value = rng.nextBoolean() ? rng.nextInt() : rng.nextInt(1 << 16);
                    for (int i = 0; i < 4; i++) {
                        out[at + i] = (byte) (value >>> (24 - 8 * i));
                    }
                }
            }
            case 4 -> out = Arrays.copyOf(out, rng.nextInt(n + 1));
            case 5 -> {
                out = Arrays.copyOf(out, n + 1 + rng.nextInt(rng.nextBoolean() ? 4 : 64));
                for (int i = n; i < out.length; i++) {
                    out[i] = (byte) rng.nextInt(256);
                }
            }
            case 6 -> {
                if (n > 0) {
                    int from = rng.nextInt(n);
                    int length = 1 + rng.nextInt(Math.min(n - from, 64));
                    byte[] longer = Arrays.copyOf(out, n + length);
                    System.arraycopy(out, from, longer, from + length, n - from);
                    out = longer;
                }
            }
            case 7 -> {
                if (n > 0) {
                    int from = rng.nextInt(n);
                    int length = 1 + rng.nextInt(Math.min(n - from, 64));
                    byte[] shorter = new byte[n - length];
                    System.arraycopy(out, 0, shorter, 0, from);
                    System.arraycopy(out, from + length, shorter, from, n - from - length);
                    out = shorter;
                }
            }
            case 8 -> {
                int head = rng.nextInt(n + 1);
                int tail = rng.nextInt(other.length + 1);
                out = Arrays.copyOf(out, head + other.length - tail);
                System.arraycopy(other, tail, out, head, other.length - tail);
            }
            default -> {
                if (n > 0) {
                    int from = rng.nextInt(n);
                    int length = 1 + rng.nextInt(Math.min(n - from, 16));
                    for (int i = from; i < from + length; i++) {
                        out[i] = (byte) rng.nextInt(256);
                    }
                }
            }
        }
        return out;
    }

    /** {@code in} after 1 to {@code most} mutations (see {@link #mutate(SplittableRandom, byte[], byte[])}). */
    public static byte[] mutate(SplittableRandom rng, byte[] in, byte[] other, int most) {
        byte[] out = in;
        for (int m = 1 + rng.nextInt(most); m > 0; m--) {
            out = mutate(rng, out, other);
        }
        return out;
    }

    /** {@code length} random bytes. */
    public static byte[] garbage(SplittableRandom rng, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) rng.nextInt(256);
        }
        return out;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }
}
