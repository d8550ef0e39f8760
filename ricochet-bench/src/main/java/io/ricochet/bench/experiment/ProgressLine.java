package io.ricochet.bench.experiment;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress of a long batch of runs on standard error: {@code [figure 12] 45/90 runs  1m12s  ~1m10s left}.
 * On a terminal the line is redrawn in place; otherwise (a log file, CI) a line is written every tenth of the
 * batch, and at least every 30 seconds.
 */
public final class ProgressLine {
    private static final long LOG_EVERY_NS = 30_000_000_000L;

    private final PrintStream out;
    private final boolean terminal;
    private String label = "";
    private int total;
    private int finished;
    private long startNs;
    private long lastLogNs;
    private int lastLoggedTenth;

    public ProgressLine(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A progress line that prints nothing. */
    public static ProgressLine silent() {
        return new ProgressLine(null, false);
    }

    public synchronized ProgressLine label(String text) {
        this.label = text;
        return this;
    }

    synchronized void start(int runs) {
        total = runs;
        finished = 0;
        startNs = System.nanoTime();
        lastLogNs = startNs;
        lastLoggedTenth = 0;
        if (out != null && runs > 0 && !terminal) {
            out.printf(Locale.ROOT, "[%s] %d runs to do%n", label, runs);
        }
    }

    synchronized void step() {
        finished++;
        if (out == null) {
            return;
        }
        long now = System.nanoTime();
        int tenth = total == 0 ? 10 : finished * 10 / total;
        if (terminal) {
            out.print("\r" + line(now) + "   ");
            out.flush();
        } else if (tenth > lastLoggedTenth || now - lastLogNs >= LOG_EVERY_NS) {
            out.println(line(now));
            lastLoggedTenth = tenth;
            lastLogNs = now;
        }
    }

    synchronized void finish() {
        if (out != null && terminal && total > 0) {
            out.println();
        }
    }

    private String line(long now) {
        double elapsed = (now - startNs) / 1e9;
        String left = finished == 0 ? "?" : Numbers.duration(elapsed / finished * (total - finished));
        return String.format(Locale.ROOT, "[%s] %d/%d runs  %s  ~%s left", label, finished, total,
                Numbers.duration(elapsed), left);
    }
}
