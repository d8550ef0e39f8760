package io.ricochet.cli;

import io.ricochet.sim.Simulator;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress line on a console, rewritten in place with a carriage return:
 * {@code simulated 12.0 / 31.0 s, 38%, 9 s elapsed}. Quiet for the first two seconds of wall time, so short runs
 * print nothing; {@link #finish()} erases it.
 */
final class ProgressLine implements Simulator.Progress {

    private static final long QUIET_NS = 2_000_000_000L;

    private final PrintWriter err;
    private final LongSupplier nanoClock;
    private final long startNs;
    private int shownWidth;

    /**
     * @param err       where to draw the line
     * @param nanoClock monotonic time in nanoseconds ({@code System::nanoTime})
     */
    ProgressLine(PrintWriter err, LongSupplier nanoClock) {
        this.err = err;
        this.nanoClock = nanoClock;
        this.startNs = nanoClock.getAsLong();
    }

    @Override
    public void at(double simulatedSeconds, double totalSeconds) {
        long elapsedNs = nanoClock.getAsLong() - startNs;
        if (elapsedNs < QUIET_NS) {
            return;
        }
        long percent = totalSeconds <= 0 ? 100 : Math.min(100, Math.round(100 * simulatedSeconds / totalSeconds));
        String text = String.format(Locale.ROOT, "simulated %.1f / %.1f s, %d%%, %d s elapsed",
                simulatedSeconds, totalSeconds, percent, elapsedNs / 1_000_000_000L);
        err.print("\r" + text + " ".repeat(Math.max(0, shownWidth - text.length())));
        err.flush();
        shownWidth = Math.max(shownWidth, text.length());
    }

    /** Erases the line, if one was drawn. */
    void finish() {
        if (shownWidth > 0) {
            err.print("\r" + " ".repeat(shownWidth) + "\r");
            err.flush();
            shownWidth = 0;
        }
    }
}
