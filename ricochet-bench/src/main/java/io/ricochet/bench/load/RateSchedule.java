package io.ricochet.bench.load;

import io.ricochet.support.ParsingConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A load generator's offered rate over time: phases of a constant rate, one after the other, written
 * {@code RATE:SECONDS,RATE:SECONDS,...} (e.g. {@code 120000:10,30000:15}: 120 000 packets/s for 10 s, then 30 000/s
 * for 15 s). A generator follows it without restarting, so its node id and its streams stay the same when the load
 * changes. Packets due by a time are counted over whole phases, so a phase change carries no rounding from one
 * phase into the next beyond one packet. Immutable.
 */
public final class RateSchedule {
    /** The most phases one schedule may hold. */
    public static final int MAX_PHASES = 64;
    private static final long NS_PER_S = 1_000_000_000L;
    private static final String EXAMPLE = "write RATE:SECONDS phases separated by commas, e.g. 120000:10,30000:15";

    /**
     * One phase.
     *
     * @param rate    packets per second, more than 0
     * @param seconds how long, more than 0
     */
    public record Phase(double rate, double seconds) {
        long nanos() {
            return Math.round(seconds * NS_PER_S);
        }
    }

    private final List<Phase> phases;
    private final long[] startNs;
    private final long totalNs;

    private RateSchedule(List<Phase> phases) {
        this.phases = List.copyOf(phases);
        this.startNs = new long[phases.size()];
        long t = 0;
        for (int i = 0; i < phases.size(); i++) {
            startNs[i] = t;
            t += phases.get(i).nanos();
        }
        this.totalNs = t;
    }

    /**
     * Parses a schedule.
     *
     * @throws IllegalArgumentException with a message fit for a user if {@code text} is not a valid schedule
     */
    public static RateSchedule parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty schedule; " + EXAMPLE);
        }
        String[] parts = text.split(",", -1);
        if (parts.length > MAX_PHASES) {
            throw new IllegalArgumentException("'" + text + "' has " + parts.length + " phases; at most "
                    + MAX_PHASES + " are allowed");
        }
        List<Phase> phases = new ArrayList<>();
        for (String part : parts) {
            String item = part.strip();
            int colon = item.indexOf(':');
            if (colon < 0 || item.indexOf(':', colon + 1) >= 0) {
                throw new IllegalArgumentException("phase '" + item + "' in '" + text + "' is not RATE:SECONDS; "
                        + EXAMPLE);
            }
            double rate = number(item.substring(0, colon), "rate", item);
            double seconds = number(item.substring(colon + 1), "duration", item);
            phases.add(phase(rate, seconds, "phase '" + item + "'"));
        }
        return new RateSchedule(phases);
    }

    /** One phase: {@code rate} packets/s for {@code seconds} (what {@code --rate} and {@code --seconds} mean). */
    public static RateSchedule constant(double rate, double seconds) {
        return new RateSchedule(List.of(phase(rate, seconds, "--rate " + rate + " --seconds " + seconds)));
    }

    private static Phase phase(double rate, double seconds, String what) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException(what + ": the rate must be a positive number of packets/s");
        }
        if (!(seconds > 0) || Double.isInfinite(seconds) || seconds * NS_PER_S > Long.MAX_VALUE / (2 * MAX_PHASES)) {
            throw new IllegalArgumentException(what + ": the duration must be a positive number of seconds");
        }
        if (Math.round(seconds * NS_PER_S) < 1_000_000) {
            throw new IllegalArgumentException(what + ": a phase must last at least 1 ms");
        }
        return new Phase(rate, seconds);
    }

    private static double number(String digits, String what, String item) {
        try {
            return Double.parseDouble(digits.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the " + what + " '" + digits.strip() + "' of phase '" + item
                    + "' is not a number; " + EXAMPLE);
        }
    }

    public List<Phase> phases() {
        return phases;
    }

    /** Nanoseconds from the start of the schedule to the start of phase {@code index}. */
    public long phaseStartNanos(int index) {
        return startNs[index];
    }

    /** The whole schedule's length. */
    public long totalNanos() {
        return totalNs;
    }

    public double totalSeconds() {
        return totalNs / 1e9;
    }

    /** The highest rate of any phase: what a batch cap must allow for. */
    public double peakRate() {
        return phases.stream().mapToDouble(Phase::rate).max().orElseThrow();
    }

    /** The rate in force at {@code elapsedNs} after the start; 0 after the end. */
    public double rateAt(long elapsedNs) {
        if (elapsedNs < 0 || elapsedNs >= totalNs) {
            return 0;
        }
        return phases.get(phaseAt(elapsedNs)).rate();
    }

    /** Packets due over the whole schedule. */
    public long totalPackets() {
        return dueTotal(totalNs);
    }

    /**
     * Packets due in all at {@code elapsedNs} after the start: the whole phases before plus what the current phase
     * owes so far. Each phase's share is computed as {@link #due(double, long)} does, so a one-phase schedule gives
     * exactly the counts of a constant rate. Nothing more is due after the end.
     */
    public long dueTotal(long elapsedNs) {
        if (elapsedNs <= 0) {
            return 0;
        }
        long t = Math.min(elapsedNs, totalNs);
        long due = 0;
        for (int i = 0; i < phases.size() && startNs[i] < t; i++) {
            long inPhase = Math.min(t - startNs[i], phases.get(i).nanos());
            due += due(phases.get(i).rate(), inPhase);
        }
        return due;
    }

    /**
     * Packets due {@code elapsedNs} into a constant rate. Whole seconds and the rest are multiplied apart, and the
     * rest as integer nanoseconds before dividing, so a whole-number rate gives exact counts at tick boundaries
     * (20 000/s is exactly 20 at 1 ms, where {@code 20000 * 0.001} is 19.999...).
     */
    static long due(double rate, long elapsedNs) {
        if (elapsedNs <= 0) {
            return 0;
        }
        long seconds = elapsedNs / NS_PER_S;
        long restNs = elapsedNs % NS_PER_S;
        return (long) Math.floor(rate * seconds + rate * restNs / NS_PER_S);
    }

    /** The index of the phase in force at {@code elapsedNs}: the first before the start, the last after the end. */
    public int phaseAt(long elapsedNs) {
        int i = phases.size() - 1;
        while (i > 0 && startNs[i] > elapsedNs) {
            i--;
        }
        return i;
    }

    /** The schedule as {@link #parse} reads it. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Phase p : phases) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(plain(p.rate())).append(':').append(plain(p.seconds()));
        }
        return out.toString();
    }

    private static String plain(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RateSchedule s && phases.equals(s.phases);
    }

    @Override
    public int hashCode() {
        return phases.hashCode();
    }

    /** Picocli converter for {@code --schedule}. */
    public static final class Converter extends ParsingConverter<RateSchedule> {
        public Converter() {
            super(RateSchedule::parse);
        }
    }
}
