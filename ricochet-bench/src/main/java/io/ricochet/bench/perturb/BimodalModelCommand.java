package io.ricochet.bench.perturb;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.experiment.FigureOptions;
import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench bimodal-model}: Bimodal Multicast's "almost all or almost none" distribution from its kind of
 * analytical model ({@link EpidemicModel}), exact and checked by seeded Monte Carlo. The simulator's measured
 * histograms are {@code bench receivers}; this is the model, with the sender crash the simulator does not have.
 */
@Command(name = "bimodal-model",
        sortOptions = false,
        description = {
            "Computes the distribution of the number of processes a message reaches under Bimodal Multicast's kind "
                + "of model: an unreliable multicast, then gossip rounds from every holder, with lossy gossip and a "
                + "sender that may crash right after multicasting. Exact (a Markov chain over rounds), and by seeded "
                + "Monte Carlo as a check.",
            "Writes DOCS/figures/NAME.csv, NAME.png (log scale, down to 1e-12) and NAME.md (the table, also printed).",
            "",
        })
public final class BimodalModelCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "50",
            description = "Processes, the sender included, 2..2000 (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--fanout", paramLabel = "B", defaultValue = "1",
            description = "Gossip targets per holder per round (default: ${DEFAULT-VALUE}).")
    private int fanout;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "20",
            description = "Gossip rounds before the count (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--loss", paramLabel = "P", defaultValue = "0.05",
            description = "Loss of each gossip, request and retransmission (default: ${DEFAULT-VALUE}).")
    private double loss;

    @Option(names = "--sender-crash", paramLabel = "P", defaultValue = "0.001",
            description = "Probability the sender crashes right after its multicast (default: ${DEFAULT-VALUE}).")
    private double senderCrash;

    @Option(names = "--multicast-loss", paramLabel = "LIST", defaultValue = "1,0.9,0.05",
            description = "Probabilities the multicast misses a process, one line each; 1 is the analysis' "
                    + "pessimistic case, only the sender has the message (default: ${DEFAULT-VALUE}).")
    private String multicastLoss;

    @Option(names = "--trials", paramLabel = "T", defaultValue = "200000",
            description = "Monte Carlo trials per line, 0..10000000 (0: none) (default: ${DEFAULT-VALUE}).")
    private int trials;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of the Monte Carlo (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private FigureOptions figures;

    /** Probabilities below this are not drawn: the log axis would span hundreds of decades. */
    static final double PLOT_FLOOR = 1e-12;

    /** One line: a model, its exact distribution and the Monte Carlo's frequencies. */
    record Line(EpidemicModel model, double[] exact, long[] counts) {
    }

    @Override
    public Integer call() {
        OptionChecks checks = new OptionChecks(spec);
        String files = figures.problem();
        checks.check(files == null, files);
        checks.check(trials >= 0 && trials <= 10_000_000, "--trials " + trials + ": must be in 0..10000000");
        List<Double> misses = checks.parsed(() -> ProtocolEntries.numbers("--multicast-loss", multicastLoss, 0,
                Double.POSITIVE_INFINITY));   // the model says what range it takes
        List<Line> lines = new ArrayList<>();
        for (double miss : misses) {
            EpidemicModel model = checks.parsed(() -> new EpidemicModel(nodes, fanout, rounds, loss, senderCrash,
                    miss));
            lines.add(new Line(model, model.distribution(), trials == 0 ? null : model.monteCarlo(trials, seed)));
        }
        String table = table(lines, trials);
        return figures.write(csv(lines, trials), charts(lines, trials), table, System.out, System.err);
    }

    static String csv(List<Line> lines, int trials) {
        StringBuilder out = new StringBuilder("multicast_loss,receivers,probability,monte_carlo_frequency\n");
        for (Line line : lines) {
            for (int k = 0; k < line.exact().length; k++) {
                out.append(String.format(Locale.ROOT, "%s,%d,%.6e,%s%n", line.model().multicastLoss(), k,
                        line.exact()[k], line.counts() == null ? ""
                                : String.format(Locale.ROOT, "%.6e", line.counts()[k] / (double) trials)));
            }
        }
        return out.toString();
    }

    /** Per line: the weight of "almost none" (at most 10 % of the others), the middle, "almost all" (at least 90 %). */
    static String table(List<Line> lines, int trials) {
        MarkdownTable table = new MarkdownTable(List.of("multicast loss", "P(none)", "P(almost none, <= 10 %)",
                "P(between)", "P(almost all, >= 90 %)", "P(all)", "mean receivers",
                "Monte Carlo: almost none / between / almost all"));
        for (Line line : lines) {
            double[] p = line.exact();
            int others = p.length - 1;
            double[] modes = modes(p);
            double mean = 0;
            for (int k = 0; k < p.length; k++) {
                mean += k * p[k];
            }
            String mc = "-";
            if (line.counts() != null) {
                double[] f = new double[p.length];
                for (int k = 0; k < f.length; k++) {
                    f[k] = line.counts()[k] / (double) trials;
                }
                double[] m = modes(f);
                mc = fmt("%.3e / %.3e / %.6f", m[0], m[1], m[2]);
            }
            table.row(List.of(fmt("%s", line.model().multicastLoss()), fmt("%.3e", p[0]), fmt("%.3e", modes[0]),
                    fmt("%.3e", modes[1]), fmt("%.6f", modes[2]), fmt("%.6f", p[others]),
                    fmt("%.2f of %d", mean, others), mc));
        }
        return table.toString();
    }

    /** The weights of k <= 10 % of the others, strictly between, and k >= 90 %. */
    static double[] modes(double[] p) {
        int others = p.length - 1;
        double[] out = new double[3];
        for (int k = 0; k < p.length; k++) {
            int mode = k <= 0.1 * others ? 0 : k >= 0.9 * others ? 2 : 1;
            out[mode] += p[k];
        }
        return out;
    }

    static List<Chart<?, ?>> charts(List<Line> lines, int trials) {
        Map<String, double[][]> series = new LinkedHashMap<>();
        Set<String> sampled = new HashSet<>();
        for (Line line : lines) {
            double[] p = line.exact();
            double[][] xy = new double[2][p.length];
            for (int k = 0; k < p.length; k++) {
                xy[0][k] = k;
                xy[1][k] = p[k];
            }
            series.put("multicast loss " + line.model().multicastLoss() + " (exact)", xy);
            if (line.counts() != null) {
                double[][] mc = new double[2][p.length];
                for (int k = 0; k < p.length; k++) {
                    mc[0][k] = k;
                    mc[1][k] = line.counts()[k] / (double) trials;
                }
                String label = "multicast loss " + line.model().multicastLoss() + " (Monte Carlo, " + trials
                        + " trials)";
                series.put(label, mc);
                sampled.add(label);
            }
        }
        EpidemicModel m = lines.get(0).model();
        String title = fmt("n = %d, fanout %d, %d rounds, loss %s, sender crash %s", m.n(), m.fanout(), m.rounds(),
                m.loss(), m.senderCrash());
        return List.of(Plots.logY(title, "Processes (other than the sender) that received the message",
                "Probability", series, sampled, PLOT_FLOOR));
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
