package io.ricochet.bench.experiment;

import java.util.Locale;

/** Number formatting shared by the CSV, the tables and the axis labels (always with a '.' decimal point). */
final class Numbers {
    private Numbers() {
    }

    /** {@code 5} for 5.0, {@code 0.01} for 0.01: the shortest plain form. */
    static String plain(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** {@code v} with {@code digits} decimals, or "–" when it is not a number (no run had a value). */
    static String fixed(double v, int digits) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    /** Seconds as {@code 1h02m03s} / {@code 2m03s} / {@code 3s}. */
    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60);
        }
        return s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }
}
