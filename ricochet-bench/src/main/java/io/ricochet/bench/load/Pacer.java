package io.ricochet.bench.load;

/**
 * The arithmetic of a paced sender that wakes up every so often and sends a batch: at a time {@code elapsed} after
 * the start, its {@link RateSchedule} says how many packets are due in all ({@code floor(rate * elapsed)} for a
 * constant rate), and a batch is what is due minus what was sent, capped so that a late wake-up (a descheduled
 * thread, a GC pause) turns into a few slightly larger batches instead of one burst. A sender that cannot keep up
 * falls behind: {@link #behind} grows and the achieved rate, {@link #sent} over the elapsed time, says so. A debt
 * does not outlive its phase: at a phase change what the earlier phases still owed is {@link #skipped}, never sent,
 * so a generator that could not keep up with an overload phase does not go on sending it when the load is meant to
 * have fallen. Pure arithmetic, no clock of its own.
 */
public final class Pacer {
    private static final long NS_PER_S = 1_000_000_000L;
    /** "Without end" for a constant rate: a year. */
    private static final double FOREVER_SECONDS = 365 * 86_400.0;

    private final RateSchedule schedule;
    private final int maxBatch;
    private long sent;
    private long skipped;

    /**
     * A constant rate without end.
     *
     * @param ratePerSecond packets per second, more than 0
     * @param maxBatch      the most packets one batch may hold, 1 or more
     */
    public Pacer(double ratePerSecond, int maxBatch) {
        this(RateSchedule.constant(checkRate(ratePerSecond), FOREVER_SECONDS), maxBatch);
    }

    /**
     * @param schedule the rate over time; nothing is due after its end
     * @param maxBatch the most packets one batch may hold, 1 or more
     */
    public Pacer(RateSchedule schedule, int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("max batch = " + maxBatch + ": must be 1 or more");
        }
        this.schedule = schedule;
        this.maxBatch = maxBatch;
    }

    private static double checkRate(double ratePerSecond) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate = " + ratePerSecond + ": must be a positive number");
        }
        return ratePerSecond;
    }

    /**
     * A batch cap fit for waking every {@code intervalNs}: what {@code slack} intervals carry at {@code rate}
     * (rounded up, at least 1).
     */
    public static int maxBatchFor(double ratePerSecond, long intervalNs, int slack) {
        double perInterval = ratePerSecond * intervalNs / NS_PER_S;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.ceil(perInterval * slack)));
    }

    /** Packets due in all at {@code elapsedNs} after the start ({@link RateSchedule#dueTotal}). */
    public long dueTotal(long elapsedNs) {
        return schedule.dueTotal(elapsedNs);
    }

    /** How many packets to send now, {@code elapsedNs} after the start: 0 to the batch cap. */
    public int batch(long elapsedNs) {
        skipped = skippedBy(elapsedNs);
        return (int) Math.min(maxBatch, Math.max(0, dueTotal(elapsedNs) - sent - skipped));
    }

    /**
     * What is skipped by {@code elapsedNs}: all the phases ended before it owed and did not send (a phase ends just
     * after its last instant, so a batch exactly at a phase change still sends the ending phase's due; a batch
     * later skips what was due by the change, at most one tick's worth for a sender that keeps up).
     */
    private long skippedBy(long elapsedNs) {
        long dueBefore = schedule.dueTotal(schedule.phaseStartNanos(schedule.phaseAt(elapsedNs - 1)));
        return Math.max(skipped, dueBefore - sent);
    }

    /** Packets of earlier phases never sent: the debt each phase left at its end. */
    public long skipped() {
        return skipped;
    }

    /** Records that {@code count} packets went out. */
    public void sent(int count) {
        sent += count;
    }

    /** Packets sent so far. */
    public long sent() {
        return sent;
    }

    /** Packets of the current phase due but not yet sent at {@code elapsedNs}. */
    public long behind(long elapsedNs) {
        return Math.max(0, dueTotal(elapsedNs) - sent - skippedBy(elapsedNs));
    }

    /** The rate achieved over {@code elapsedNs}, in packets per second. */
    public double achievedRate(long elapsedNs) {
        return elapsedNs <= 0 ? 0 : sent * (double) NS_PER_S / elapsedNs;
    }

    public RateSchedule schedule() {
        return schedule;
    }

    public int maxBatch() {
        return maxBatch;
    }
}
