package io.ricochet.bench.experiment;

/**
 * How long and how often each point runs: {@code seconds} of measured traffic per run and {@code seeds} runs per
 * point (seeds 1..seeds). The paper's runs last 30 seconds and every point averages 5 runs (section 5).
 */
public record Scale(double seconds, int seeds, boolean quick) {
    /** The paper's duration. */
    public static final double FULL_SECONDS = 30;
    /** {@code --quick}: enough traffic for thousands of losses per point at 1 % loss, minutes for the whole set. */
    public static final double QUICK_SECONDS = 2;
    public static final int SEEDS = 5;

    public Scale {
        if (!(seconds > 0 && seconds <= 3600)) {
            throw new IllegalArgumentException("--seconds " + seconds + ": must be in (0, 3600]");
        }
        if (seeds < 1 || seeds > 100) {
            throw new IllegalArgumentException("--seeds " + seeds + ": must be in 1..100");
        }
    }

    /** The seed of run {@code i} (0-based) of a point. */
    public long seed(int i) {
        return i + 1;
    }
}
