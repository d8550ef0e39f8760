package io.ricochet.sim;

/**
 * A perturbed member, as in the QSM paper's "sleep" scenario and Bimodal Multicast's perturbed process: node
 * {@code node} sleeps for the last {@code fraction} of every period of {@code periodNs} (awake first, so the run's
 * start, where every node joins, is awake). Asleep it neither receives nor sends nor runs timers; frames arriving
 * then wait in its socket buffer, up to {@code backlog} of them, and the rest are dropped; on waking it processes
 * the waiting frames in arrival order, then the timer it missed. Checked on construction, with messages naming the
 * {@code simulate} flags.
 *
 * @param node     the sleeping node's index, 0..n-1
 * @param fraction share of every period asleep, in [0, 1); 0 is a run without perturbation that still reports it
 * @param periodNs the period, 1 ms..60 s
 * @param backlog  frames the socket buffer holds while asleep, 0..1000000
 */
public record Perturbation(int node, double fraction, long periodNs, int backlog) {
    /** The period when none is given: one second, as in "a fraction of every second". */
    public static final long DEFAULT_PERIOD_NS = 1_000_000_000L;
    /** Frames held while asleep: about Linux's default 212 992-byte socket buffer of 1 KB datagrams. */
    public static final int DEFAULT_BACKLOG = 200;

    public Perturbation {
        if (!(fraction >= 0 && fraction < 1)) {
            throw new IllegalArgumentException("--perturb " + node + ":" + fraction
                    + ": the fraction asleep must be in [0, 1)");
        }
        if (periodNs < 1_000_000L || periodNs > 60_000_000_000L) {
            throw new IllegalArgumentException("--perturb " + node + ":" + fraction + ":" + periodNs / 1e6
                    + ": the period must be in 1..60000 ms");
        }
        if (backlog < 0 || backlog > 1_000_000) {
            throw new IllegalArgumentException("--perturb-backlog " + backlog + ": must be in 0..1000000");
        }
    }

    /**
     * Parses {@code NODE:FRACTION[:PERIOD_MS]}, e.g. {@code 3:0.25} or {@code 3:0.5:200}.
     *
     * @throws IllegalArgumentException saying what is wrong, for the {@code --perturb} flag
     */
    public static Perturbation parse(String text, int backlog) {
        String[] parts = text.trim().split(":", -1);
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException("--perturb " + text + ": expected NODE:FRACTION[:PERIOD_MS], e.g. "
                    + "3:0.25 or 3:0.25:1000");
        }
        try {
            int node = Integer.parseInt(parts[0].trim());
            double fraction = Double.parseDouble(parts[1].trim());
            double periodMs = parts.length == 3 ? Double.parseDouble(parts[2].trim()) : DEFAULT_PERIOD_NS / 1e6;
            if (!Double.isFinite(periodMs)) {
                throw new NumberFormatException(parts[2]);
            }
            return new Perturbation(node, fraction, Math.round(periodMs * 1e6), backlog);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--perturb " + text + ": NODE must be a whole number, FRACTION and "
                    + "PERIOD_MS numbers, e.g. 3:0.25:1000", e);
        }
    }

    /** True if the node is asleep at {@code nowNs}. */
    public boolean asleep(long nowNs) {
        return fraction > 0 && Math.floorMod(nowNs, periodNs) >= awakeNs();
    }

    /** When the sleep that holds at {@code nowNs} ends (the start of the next period). */
    public long wakeNs(long nowNs) {
        return Math.floorDiv(nowNs, periodNs) * periodNs + periodNs;
    }

    /** The awake part of each period. */
    public long awakeNs() {
        return Math.round(periodNs * (1 - fraction));
    }

    /** As the flag reads, for result files: {@code NODE:FRACTION:PERIOD_MS}. */
    @Override
    public String toString() {
        return node + ":" + fraction + ":" + periodNs / 1e6;
    }
}
