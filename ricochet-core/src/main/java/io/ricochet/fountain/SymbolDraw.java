package io.ricochet.fountain;

/**
 * Which source symbols one encoding symbol combines: its degree from the {@link RobustSoliton} distribution and that
 * many distinct source symbols, all drawn from a generator seeded by the code's seed and the symbol's id alone. The
 * encoder and every decoder draw the same set for the same id, so a symbol on the wire carries only its id (the
 * Digital Fountain paper's encoding symbols are named the same way, by their index).
 *
 * <p>The generator is SplitMix64 (Steele, Lea and Flood, OOPSLA 2014), written out so that the draws are the same
 * on every JVM. Distinct neighbours come from Floyd's sampling with a stamp per source symbol: O(degree), no
 * allocation. Not thread-safe: one per encoder or decoder.
 */
public final class SymbolDraw {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final RobustSoliton distribution;
    private final long seed;
    private final int[] neighbours;
    private final int[] stamp;
    private int generation;
    private long state;

    /** @param seed the code's seed, the same at the encoder and every decoder */
    public SymbolDraw(RobustSoliton distribution, long seed) {
        this.distribution = distribution;
        this.seed = seed;
        this.neighbours = new int[distribution.k()];
        this.stamp = new int[distribution.k()];
    }

    public int k() {
        return distribution.k();
    }

    /**
     * Draws symbol {@code id}'s neighbours into {@link #neighbours()} and returns how many (its degree). The same id
     * always gives the same set, in the same order.
     */
    public int draw(long id) {
        state = mix(seed ^ mix(id * GOLDEN + GOLDEN));
        int k = distribution.k();
        int degree = distribution.degree((next() >>> 11) * 0x1.0p-53);
        if (++generation == 0) {
            java.util.Arrays.fill(stamp, 0);
            generation = 1;
        }
        // Floyd: for j = k - degree .. k - 1, take a uniform t in [0, j]; if t is taken already, take j.
        int n = 0;
        for (int j = k - degree; j < k; j++) {
            int t = below(j + 1);
            int pick = stamp[t] == generation ? j : t;
            stamp[pick] = generation;
            neighbours[n++] = pick;
        }
        return degree;
    }

    /** The neighbours of the last {@link #draw}; the first {@code degree} entries are valid. */
    public int[] neighbours() {
        return neighbours;
    }

    private int below(int bound) {
        return (int) (((next() >>> 32) * bound) >>> 32);
    }

    private long next() {
        state += GOLDEN;
        return mix(state);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
