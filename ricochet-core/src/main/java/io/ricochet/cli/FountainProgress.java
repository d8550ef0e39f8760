package io.ricochet.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The progress of {@code ricochet fountain recv} on standard error: {@code 1234 / 2000 symbols known, 61%, 850
 * symbols/s}. On a terminal one line rewritten in place, at most ten times a second; otherwise a plain line a
 * second, so a log stays readable.
 */
final class FountainProgress {
    private static final long NS_PER_S = 1_000_000_000L;

    private final PrintWriter err;
    private final boolean inPlace;
    private final LongSupplier nanoClock;
    private final long startNs;
    private long lastNs;
    private int shownWidth;

    FountainProgress(PrintWriter err, boolean inPlace, LongSupplier nanoClock) {
        this.err = err;
        this.inPlace = inPlace;
        this.nanoClock = nanoClock;
        this.startNs = nanoClock.getAsLong();
        this.lastNs = startNs;
    }

    /** {@code known} of {@code k} source symbols decoded, from {@code received} messages so far. */
    void at(int known, int k, long received) {
        long nowNs = nanoClock.getAsLong();
        if (nowNs - lastNs < (inPlace ? NS_PER_S / 10 : NS_PER_S)) {
            return;
        }
        lastNs = nowNs;
        double seconds = (nowNs - startNs) / (double) NS_PER_S;
        String text = String.format(Locale.ROOT, "%d / %d symbols known, %d%%, %d received, %.0f symbols/s",
                known, k, k == 0 ? 0 : 100L * known / k, received, received / Math.max(seconds, 1e-9));
        if (inPlace) {
            err.print("\r" + text + " ".repeat(Math.max(0, shownWidth - text.length())));
            shownWidth = Math.max(shownWidth, text.length());
        } else {
            err.println(text);
        }
        err.flush();
    }

    /** Ends an in-place line, so what follows starts on a line of its own. */
    void finish() {
        if (shownWidth > 0) {
            err.println();
            err.flush();
            shownWidth = 0;
        }
    }
}
