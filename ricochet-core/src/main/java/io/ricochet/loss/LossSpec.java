package io.ricochet.loss;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An immutable description of a loss model, as written on the command line, from which per-receiver
 * {@link LossModel}s are built.
 *
 * <p>Accepted forms (kind names are case-insensitive):
 * <ul>
 *   <li>{@code none}: no loss;</li>
 *   <li>{@code uniform:L}: independent loss with probability {@code L} ({@link UniformLossModel});</li>
 *   <li>{@code bursty:L:b}: loss rate {@code L} in bursts of exactly {@code b} packets ({@link ExactBurstLossModel});
 *   </li>
 *   <li>{@code markov:L:m}: Gilbert model with loss rate {@code L} and mean burst {@code m} ({@link MarkovLossModel}).
 *   </li>
 *   <li>{@code phases:S@SPEC;S@SPEC;...}: loss that changes over time ({@link PhasedLossModel}), each SPEC one of the
 *       forms above ruling for S seconds from the first packet, the last one for ever after, e.g.
 *       {@code phases:20@uniform:0.001;20@bursty:0.01:50;20@uniform:0.05;20@uniform:0.001}.</li>
 * </ul>
 * {@code L} is a decimal probability in [0, 1), {@code b} an integer {@code >= 1}, {@code m} a decimal {@code >= 1}
 * with {@code L <= m/(m+1)}. {@link #toString()} gives the canonical form, which {@link #parse(String)} maps back to
 * an equal spec.
 */
public final class LossSpec {

    private static final String USAGE =
            "use none, uniform:L, bursty:L:b or markov:L:m (L in [0,1), e.g. uniform:0.01)";
    private static final Pattern DECIMAL = Pattern.compile("(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /** The model families, with their command-line names and parameter forms. */
    private enum Kind {
        NONE("none", ""),
        UNIFORM("uniform", ":L"),
        BURSTY("bursty", ":L:b"),
        MARKOV("markov", ":L:m"),
        PHASES("phases", ":S@SPEC;S@SPEC...");

        private final String cliName;
        private final String form;

        Kind(String cliName, String form) {
            this.cliName = cliName;
            this.form = form;
        }

        int parameterCount() {
            return (int) form.chars().filter(c -> c == ':').count();
        }

        static Kind named(String name) {
            for (Kind kind : values()) {
                if (kind.cliName.equalsIgnoreCase(name)) {
                    return kind;
                }
            }
            return null;
        }
    }

    private static final LossSpec NONE = new LossSpec(Kind.NONE, 0, 1);
    private static final String PHASES_PREFIX = "phases:";

    /** One phase of a {@code phases:} spec: {@code spec} rules for {@code seconds}. */
    public record Phase(double seconds, LossSpec spec) {
        public Phase {
            Objects.requireNonNull(spec, "spec");
            if (!(seconds > 0 && seconds <= 86_400) || spec.kind == Kind.PHASES) {
                throw new IllegalArgumentException("a phase lasts (0, 86400] seconds and is not itself phased: "
                        + seconds + "@" + spec);
            }
        }
    }

    private final Kind kind;
    private final double rate;
    private final double burst;
    /** The schedule of a {@code phases:} spec; empty for every other kind. */
    private final List<Phase> phases;

    private LossSpec(Kind kind, double rate, double burst) {
        this(kind, rate, burst, List.of());
    }

    private LossSpec(Kind kind, double rate, double burst, List<Phase> phases) {
        this.kind = kind;
        this.rate = rate + 0.0;
        this.burst = burst;
        this.phases = List.copyOf(phases);
        newModel(0); // the model constructors own the parameter rules: building one validates this spec
    }

    /**
     * The spec {@code phases:...}: {@code phases} in order, from the first packet, the last for ever after. Its
     * {@link #rate()} is the duration-weighted mean of the phases' rates (the last phase counted for its seconds).
     */
    public static LossSpec phases(List<Phase> phases) {
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a phased loss model needs at least one phase");
        }
        double seconds = 0;
        double lost = 0;
        for (Phase p : phases) {
            seconds += p.seconds();
            lost += p.seconds() * p.spec().rate();
        }
        return new LossSpec(Kind.PHASES, lost / seconds, 1, phases);
    }

    /** The phases of a {@code phases:} spec, in order; empty for every other kind. */
    public List<Phase> phaseList() {
        return phases;
    }

    /** The spec {@code none}: no packet is ever dropped. */
    public static LossSpec none() {
        return NONE;
    }

    /**
     * The spec {@code uniform:L}.
     *
     * @throws IllegalArgumentException as {@link UniformLossModel#UniformLossModel(double, long)}
     */
    public static LossSpec uniform(double rate) {
        return new LossSpec(Kind.UNIFORM, rate, 1);
    }

    /**
     * The spec {@code bursty:L:b}.
     *
     * @throws IllegalArgumentException as {@link ExactBurstLossModel#ExactBurstLossModel(double, int, long)}
     */
    public static LossSpec bursty(double rate, int burst) {
        return new LossSpec(Kind.BURSTY, rate, burst);
    }

    /**
     * The spec {@code markov:L:m}.
     *
     * @throws IllegalArgumentException as {@link MarkovLossModel#MarkovLossModel(double, double, long)}
     */
    public static LossSpec markov(double rate, double meanBurst) {
        return new LossSpec(Kind.MARKOV, rate, meanBurst);
    }

    /**
     * Parses a command-line loss model: {@code none}, {@code uniform:L}, {@code bursty:L:b} or {@code markov:L:m}.
     *
     * @param text the text to parse; surrounding whitespace is ignored
     * @return the spec it describes
     * @throws IllegalArgumentException with a message saying what is wrong and which forms are accepted
     */
    public static LossSpec parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("loss model is missing; " + USAGE);
        }
        String spec = text.strip();
        if (spec.regionMatches(true, 0, PHASES_PREFIX, 0, PHASES_PREFIX.length())) {
            return parsePhases(spec);
        }
        String[] parts = spec.split(":", -1);
        Kind kind = Kind.named(parts[0]);
        if (kind == null) {
            throw new IllegalArgumentException("loss model '" + spec + "' is not recognised; " + USAGE);
        }
        int expected = kind.parameterCount();
        if (parts.length - 1 != expected) {
            String needs = expected == 0 ? "takes no parameters"
                    : "needs " + expected + (expected == 1 ? " parameter" : " parameters");
            throw new IllegalArgumentException("loss model '" + spec + "' " + needs + " (" + kind.cliName + kind.form
                    + "); " + USAGE);
        }
        if (kind == Kind.NONE) {
            return NONE;
        }
        double rate = parseRate(parts[1], spec);
        return switch (kind) {
            case NONE -> NONE;
            case UNIFORM -> uniform(rate);
            case BURSTY -> bursty(rate, parseBurst(parts[2], spec));
            case MARKOV -> markov(rate, parseMeanBurst(parts[2], rate, spec));
            case PHASES -> parsePhases(spec);
        };
    }

    private static LossSpec parsePhases(String spec) {
        List<Phase> phases = new ArrayList<>();
        for (String part : spec.substring(PHASES_PREFIX.length()).split(";", -1)) {
            int at = part.indexOf('@');
            String seconds = at < 0 ? "" : part.substring(0, at).strip();
            if (at < 0 || !DECIMAL.matcher(seconds).matches()) {
                throw new IllegalArgumentException("phase '" + part + "' in '" + spec + "' must be SECONDS@MODEL, e.g. "
                        + "20@uniform:0.001; " + USAGE);
            }
            LossSpec model = parse(part.substring(at + 1));
            if (model.kind == Kind.PHASES) {
                throw new IllegalArgumentException("phase '" + part + "' in '" + spec + "' may not be phased itself");
            }
            phases.add(new Phase(Double.parseDouble(seconds), model));
        }
        return phases(phases);
    }

    private static double parseRate(String text, String spec) {
        if (!DECIMAL.matcher(text).matches() || !LossRates.isRate(Double.parseDouble(text))) {
            throw new IllegalArgumentException(
                    "loss rate '" + text + "' in '" + spec + "' must be a number in [0, 1)");
        }
        return Double.parseDouble(text);
    }

    private static int parseBurst(String text, String spec) {
        try {
            int burst = Integer.parseInt(text);
            if (burst >= 1 && DIGITS.matcher(text).matches()) {
                return burst;
            }
        } catch (NumberFormatException e) {
            // not an int: reported below
        }
        throw new IllegalArgumentException("burst length '" + text + "' in '" + spec + "' must be an integer >= 1");
    }

    private static double parseMeanBurst(String text, double rate, String spec) {
        if (!DECIMAL.matcher(text).matches() || !MarkovLossModel.isMeanBurst(Double.parseDouble(text))) {
            throw new IllegalArgumentException(
                    "mean burst length '" + text + "' in '" + spec + "' must be a number >= 1");
        }
        double meanBurst = Double.parseDouble(text);
        if (rate > MarkovLossModel.maxRate(meanBurst)) {
            throw new IllegalArgumentException("loss rate " + format(rate) + " in '" + spec
                    + "' is too high for mean burst length " + format(meanBurst)
                    + ": the Gilbert model needs L <= m/(m+1) = " + format(MarkovLossModel.maxRate(meanBurst)));
        }
        return meanBurst;
    }

    /**
     * Builds a fresh model for one receiver.
     *
     * @param seed seed of the model's random generator; the same seed gives the same drop sequence
     * @return a new, independent model in its initial state
     */
    public LossModel newModel(long seed) {
        return switch (kind) {
            case NONE -> LossModel.none();
            case UNIFORM -> new UniformLossModel(rate, seed);
            case BURSTY -> new ExactBurstLossModel(rate, (int) burst, seed);
            case MARKOV -> new MarkovLossModel(rate, burst, seed);
            case PHASES -> phasedModel(seed);
        };
    }

    private LossModel phasedModel(long seed) {
        java.util.SplittableRandom seeds = new java.util.SplittableRandom(seed);
        long[] durationsNs = new long[phases.size()];
        List<LossModel> models = new ArrayList<>();
        for (int i = 0; i < phases.size(); i++) {
            durationsNs[i] = Math.max(1, (long) (phases.get(i).seconds() * 1e9));
            models.add(phases.get(i).spec().newModel(seeds.nextLong()));
        }
        return new PhasedLossModel(durationsNs, models);
    }

    /** The kind's command-line name: {@code none}, {@code uniform}, {@code bursty} or {@code markov}. */
    public String kind() {
        return kind.cliName;
    }

    /** The long-run loss rate {@code L}; 0 for {@code none}. */
    public double rate() {
        return rate;
    }

    /** The burst parameter: {@code b} for bursty, {@code m} for markov, 1 for kinds without one. */
    public double burst() {
        return burst;
    }

    /** Whether models built from this spec never drop a packet: kind {@code none}, or a loss rate of 0. */
    public boolean isNone() {
        return rate == 0;
    }

    /** The canonical command-line form, e.g. {@code uniform:0.01} or {@code markov:0.05:2.5}. */
    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> kind.cliName;
            case UNIFORM -> kind.cliName + ":" + format(rate);
            case BURSTY, MARKOV -> kind.cliName + ":" + format(rate) + ":" + format(burst);
            case PHASES -> PHASES_PREFIX + String.join(";", phases.stream()
                    .map(p -> format(p.seconds()) + "@" + p.spec()).toList());
        };
    }

    /** Shortest plain decimal that parses back to exactly {@code value}. */
    private static String format(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LossSpec that && kind == that.kind
                && Double.compare(rate, that.rate) == 0 && Double.compare(burst, that.burst) == 0
                && phases.equals(that.phases);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, rate, burst, phases);
    }
}
