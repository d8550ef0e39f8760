package io.ricochet.api;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One group's rate-of-fire as {@link NodeStats#rateOfFire()} says it: {@code "r 8, c 3.0, stagger 1: why"}. The
 * daemon writes the line with {@link #text()}; a reader ({@code ricochet top}) takes the figures back with
 * {@link #parse}, so the format lives here only.
 *
 * @param r       data packets per repair
 * @param c       repairs this node sends per r data packets it receives in the group, as tuned now
 * @param stagger the stagger of the node's repair bins
 * @param why     why c is what it is, in words
 */
public record RateOfFireLine(int r, double c, int stagger, String why) {
    private static final Pattern LINE = Pattern.compile("r (\\d{1,9}), c (\\d{1,9}(?:\\.\\d+)?), stagger (\\d{1,9}): "
            + "(.*)", Pattern.DOTALL);

    /** The line as the stats carry it; c with one decimal. */
    public String text() {
        return String.format(Locale.ROOT, "r %d, c %.1f, stagger %d: %s", r, c, stagger, why);
    }

    /** The figures of a line {@link #text()} wrote; empty for anything else (a daemon of another version, say). */
    public static Optional<RateOfFireLine> parse(String line) {
        Matcher m = line == null ? null : LINE.matcher(line);
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new RateOfFireLine(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)),
                Integer.parseInt(m.group(3)), m.group(4)));
    }
}
