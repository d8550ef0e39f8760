package io.ricochet.bench.perturb;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.experiment.FigureOptions;
import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import io.ricochet.latency.LatencyStats;
import io.ricochet.sim.SimResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench perturb}: the QSM paper's "sleep" scenario and Bimodal Multicast's perturbed member in the simulator.
 * One group of n members, all sending; member {@code --sleeper} sleeps for each of {@code --fractions} of every
 * period; for each protocol and fraction, the healthy members' throughput over time, the sleeper's, and delivery
 * latency at the healthy members. Writes DOCS/figures/NAME.csv, NAME.png and NAME.md (the table, also printed).
 */
@Command(name = "perturb",
        sortOptions = false,
        description = {
            "Simulates one member sleeping a fraction of every period (QSM's 'sleep' scenario, Bimodal Multicast's "
                + "perturbed member): one group of --nodes members, all sending; for each protocol and sleep "
                + "fraction, messages of healthy senders delivered per second at the healthy members and at the "
                + "sleeper over time, and delivery latency at the healthy members.",
            "Writes DOCS/figures/NAME.csv (per bin), NAME.png and NAME.md (the table, also printed).",
            "",
        })
public final class PerturbCommand implements Callable<Integer> {
    /** The protocols measured by default: every one of the issue's (any name `simulate --protocol` takes works). */
    static final String DEFAULT_PROTOCOLS = "ricochet,qsm,pbcast,srm";

    @Spec
    private CommandSpec spec;

    @Option(names = "--protocols", paramLabel = "LIST", defaultValue = DEFAULT_PROTOCOLS,
            description = "simulate --protocol names, comma-separated; pbcast:VARIANT for a Bimodal Multicast "
                    + "variant, qsm:MS for QSM with that token hold (default: ${DEFAULT-VALUE}).")
    private String protocols;

    @Option(names = "--fractions", paramLabel = "LIST", defaultValue = "0,0.1,0.25,0.5",
            description = "Shares of every period the sleeper sleeps, each in [0, 1) (default: ${DEFAULT-VALUE}).")
    private String fractions;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "16",
            description = "Members of the one group, 3..64 (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--sleeper", paramLabel = "NODE", defaultValue = "0",
            description = "Node index of the sleeping member (default: ${DEFAULT-VALUE}).")
    private int sleeper;

    @Option(names = "--period-ms", paramLabel = "MS", defaultValue = "1000",
            description = "The sleep's period (default: ${DEFAULT-VALUE}).")
    private double periodMs;

    @Option(names = "--backlog", paramLabel = "FRAMES", defaultValue = "200",
            description = "Frames the sleeper's socket buffer holds (simulate --perturb-backlog) "
                    + "(default: ${DEFAULT-VALUE}).")
    private int backlog;

    @Option(names = "--rate-per-node", paramLabel = "PPS", defaultValue = "1000",
            description = "Data packets per second arriving at each member (default: ${DEFAULT-VALUE}).")
    private double ratePerNode;

    @Option(names = "--loss", paramLabel = "MODEL", defaultValue = "uniform:0.01",
            description = "simulate --loss, at every receiver (default: ${DEFAULT-VALUE}).")
    private String loss;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "Measured simulated seconds, 1..120 (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--bin-ms", paramLabel = "MS", defaultValue = "100",
            description = "Width of a throughput bin, 10..10000 (default: ${DEFAULT-VALUE}).")
    private double binMs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "simulate --seed of every run (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private FigureOptions figures;

    /** One run's figures. */
    record Outcome(String protocol, double fraction, HealthyThroughput throughput, SimResult result,
                   io.ricochet.sim.PerturbationReport slept) {
    }

    @Override
    public Integer call() {
        check(nodes >= 3 && nodes <= 64, "--nodes " + nodes + ": must be in 3..64");
        check(sleeper >= 0 && sleeper < nodes, "--sleeper " + sleeper + ": must be a node index in 0.." + (nodes - 1));
        check(seconds >= 1 && seconds <= 120, "--seconds " + seconds + ": must be in 1..120");
        check(binMs >= 10 && binMs <= 10_000, "--bin-ms " + binMs + ": must be in 10..10000");
        String files = figures.problem();
        check(files == null, files);
        List<String> entries = parsed(() -> ProtocolEntries.parse("--protocols", protocols));
        List<Double> shares = parsed(() -> ProtocolEntries.numbers("--fractions", fractions, 0, 1));
        Map<String, SimulationRun> runs = new LinkedHashMap<>();
        for (String entry : entries) {   // every run is built (and so checked) before the first one starts
            for (double f : shares) {
                runs.put(entry + "@" + f, parsed(() -> new SimulationRun(flags(entry, f))));
            }
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (String entry : entries) {
            for (double f : shares) {
                SimulationRun run = runs.get(entry + "@" + f);
                HealthyThroughput watch = new HealthyThroughput(nodes, sleeper, Math.round(binMs * 1e6),
                        run.config().measuredNs());
                SimResult result = run.run(watch);
                outcomes.add(new Outcome(entry, f, watch, result, run.lastReport()));
                System.err.printf(Locale.ROOT, "perturb: %s, sleeping %.0f %% done%n", entry, 100 * f);
            }
        }
        String table = table(outcomes);
        int written = figures.write(csv(outcomes), charts(entries, outcomes), table, System.out, System.err);
        if (written != 0) {
            return written;
        }
        return outcomes.stream().allMatch(o -> o.result().verified()) ? 0 : 1;
    }

    private List<String> flags(String entry, double fraction) {
        List<String> flags = new ArrayList<>(ProtocolEntries.flags(entry));
        flags.addAll(List.of("--nodes", str(nodes), "--degree", "1", "--group-size", str(nodes),
                "--rate-per-node", Double.toString(ratePerNode), "--loss", loss, "--seconds", Double.toString(seconds),
                "--seed", Long.toString(seed),
                "--perturb", sleeper + ":" + fraction + ":" + periodMs, "--perturb-backlog", str(backlog)));
        return flags;
    }

    private static String str(int v) {
        return Integer.toString(v);
    }

    private <T> T parsed(java.util.function.Supplier<T> parse) {
        return new OptionChecks(spec).parsed(parse);
    }

    private void check(boolean ok, String message) {
        new OptionChecks(spec).check(ok, message);
    }

    /** One row per run and bin: the healthy members' and the sleeper's throughput. */
    static String csv(List<Outcome> outcomes) {
        StringBuilder out = new StringBuilder("protocol,sleep_fraction,time_s,healthy_msgs_per_s,sleeper_msgs_per_s\n");
        for (Outcome o : outcomes) {
            double[] healthy = o.throughput().healthyPerSecond();
            double[] asleep = o.throughput().sleeperPerSecond();
            for (int i = 0; i < healthy.length; i++) {
                out.append(String.format(Locale.ROOT, "%s,%s,%.3f,%.2f,%.2f%n", o.protocol(), o.fraction(),
                        i * o.throughput().binNs() / 1e9, healthy[i], asleep[i]));
            }
        }
        return out.toString();
    }

    /** One row per run: throughput, latency, overhead at the healthy members, and what the sleep cost. */
    static String table(List<Outcome> outcomes) {
        MarkdownTable table = new MarkdownTable(List.of("protocol", "asleep", "healthy msgs/s (mean)",
                "healthy msgs/s (lowest bin)", "sleeper msgs/s (mean)", "healthy latency mean / p99 (ms)",
                "control frames/s per healthy member", "frames held / dropped at the sleeper", "unrecovered"));
        for (Outcome o : outcomes) {
            double[] healthy = o.throughput().healthyPerSecond();
            LatencyStats.Summary latency = o.throughput().latencyMs();
            table.row(List.of(o.protocol(), fmt("%.0f %%", 100 * o.fraction()), fmt("%.1f", mean(healthy)),
                    fmt("%.1f", min(healthy)), fmt("%.1f", mean(o.throughput().sleeperPerSecond())),
                    fmt("%.2f / %.2f", latency.mean(), latency.p99()),
                    fmt("%.1f", o.throughput().controlPerHealthyPerSecond()),
                    o.slept().held() + " / " + o.slept().overflowed(), Long.toString(o.result().unrecovered())));
        }
        return table.toString();
    }

    private static double mean(double[] v) {
        return java.util.Arrays.stream(v).average().orElse(0);
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElse(0);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** Per protocol, the healthy members' throughput over time (one line per fraction), then the sleeper's. */
    static List<Chart<?, ?>> charts(List<String> entries, List<Outcome> outcomes) {
        List<Chart<?, ?>> healthy = new ArrayList<>();
        List<Chart<?, ?>> asleep = new ArrayList<>();
        for (String entry : entries) {
            Map<String, double[][]> h = new LinkedHashMap<>();
            Map<String, double[][]> s = new LinkedHashMap<>();
            for (Outcome o : outcomes) {
                if (o.protocol().equals(entry)) {
                    String line = fmt("asleep %.0f %%", 100 * o.fraction());
                    h.put(line, steps(o.throughput().healthyPerSecond(), o.throughput().binNs()));
                    s.put(line, steps(o.throughput().sleeperPerSecond(), o.throughput().binNs()));
                }
            }
            healthy.add(Plots.steps(entry + ": healthy members", "Time (s)", "Messages delivered per second", h,
                    Set.of()));
            asleep.add(Plots.steps(entry + ": the sleeping member", "Time (s)", "Messages delivered per second", s,
                    Set.of()));
        }
        List<Chart<?, ?>> all = new ArrayList<>(healthy);
        all.addAll(asleep);
        return all;
    }

    private static double[][] steps(double[] perBin, long binNs) {
        double[][] xy = new double[2][perBin.length];
        for (int i = 0; i < perBin.length; i++) {
            xy[0][i] = i * binNs / 1e9;
            xy[1][i] = perBin[i];
        }
        return xy;
    }
}
