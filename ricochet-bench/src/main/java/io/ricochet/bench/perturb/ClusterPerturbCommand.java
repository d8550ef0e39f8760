package io.ricochet.bench.perturb;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.experiment.FigureOptions;
import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code bench cluster-perturb}: the report of {@code scripts/experiments/cluster-perturb}, the perturbation
 * experiment on real sockets. Reads each run's workload folder and writes DOCS/figures/NAME.csv (per second),
 * NAME.png and NAME.md (the table, also printed): messages of healthy senders delivered per second at the healthy
 * members and at the stopped member, before, during and after the perturbation.
 */
@Command(name = "cluster-perturb",
        sortOptions = false,
        description = {
            "Reports the local-cluster perturbation experiment (scripts/experiments/cluster-perturb): per run, the "
                + "healthy members' and the stopped member's throughput (messages of healthy senders delivered per "
                + "second) before, during and after the perturbation.",
            "Writes DOCS/figures/NAME.csv (per second), NAME.png and NAME.md (the table, also printed).",
            "",
        })
public final class ClusterPerturbCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--run", paramLabel = "DIR", required = true,
            description = "A run's workload folder (with perturb.json and node-K.json); repeat for each run.")
    private List<Path> runs;

    @Mixin
    private FigureOptions figures;

    @Override
    public Integer call() {
        OptionChecks checks = new OptionChecks(spec);
        String files = figures.problem();
        checks.check(files == null, files);
        List<RealRun> read = new ArrayList<>();
        for (Path dir : runs) {
            read.add(checks.parsed(() -> RealRun.read(dir)));
        }
        String table = table(read);
        return figures.write(csv(read), charts(read), table, System.out, System.err);
    }

    /** One row per run and second: time from the perturbation's start, healthy members' and sleeper's rates. */
    static String csv(List<RealRun> runs) {
        StringBuilder out = new StringBuilder("protocol,sleep_fraction,time_s,healthy_msgs_per_s,sleeper_msgs_per_s\n");
        for (RealRun run : runs) {
            long[] span = run.seconds();
            for (long s = span[0]; s < span[1]; s++) {
                out.append(fmt("%s,%s,%d,%.2f,%.2f%n", run.protocol(), run.fraction(), s - startSecond(run),
                        run.healthyAt(s), run.sleeperAt(s)));
            }
        }
        return out.toString();
    }

    /**
     * One row per run. "Before" is every whole second from 4 s after the first delivery (the workload's rate ramps
     * up over its first 3 s) to the perturbation's start; "during" the whole seconds inside it; "after" the whole
     * seconds from its end to 2 s before the last delivery (the senders stop, the last second is partial).
     */
    static String table(List<RealRun> runs) {
        MarkdownTable table = new MarkdownTable(List.of("protocol", "asleep", "healthy msgs/s before",
                "healthy during (mean / lowest s)", "healthy after", "stopped member during / after",
                "delivered / expected", "LOST notices", "verdict"));
        for (RealRun run : runs) {
            long[] span = run.seconds();
            long start = startSecond(run);
            long end = Math.floorDiv(run.endMs(), 1000);
            Window before = window(run, span[0] + 4, start);
            Window during = window(run, start + 1, end);
            Window after = window(run, end + 1, span[1] - 2);
            table.row(List.of(run.protocol(), fmt("%.0f %%", 100 * run.fraction()), fmt("%.1f", before.healthy()),
                    fmt("%.1f / %.1f", during.healthy(), during.lowestHealthy()), fmt("%.1f", after.healthy()),
                    fmt("%.1f / %.1f", during.sleeper(), after.sleeper()),
                    run.total("delivered") + " / " + run.total("expected"), Long.toString(run.total("lostNotices")),
                    run.verdict()));
        }
        return table.toString();
    }

    private static long startSecond(RealRun run) {
        return Math.floorDiv(run.startMs(), 1000);
    }

    /** Means over the whole seconds [from, to). */
    record Window(double healthy, double lowestHealthy, double sleeper) {
    }

    static Window window(RealRun run, long from, long to) {
        if (to <= from) {
            return new Window(Double.NaN, Double.NaN, Double.NaN);
        }
        double healthy = 0;
        double lowest = Double.MAX_VALUE;
        double sleeper = 0;
        for (long s = from; s < to; s++) {
            double h = run.healthyAt(s);
            healthy += h;
            lowest = Math.min(lowest, h);
            sleeper += run.sleeperAt(s);
        }
        return new Window(healthy / (to - from), lowest, sleeper / (to - from));
    }

    /** Per protocol, the healthy members' throughput over time (a line per fraction), then the stopped member's. */
    static List<Chart<?, ?>> charts(List<RealRun> runs) {
        Map<String, Map<String, double[][]>> healthy = new LinkedHashMap<>();
        Map<String, Map<String, double[][]>> asleep = new LinkedHashMap<>();
        for (RealRun run : runs) {
            long[] span = run.seconds();
            int n = (int) (span[1] - span[0]);
            double[][] h = new double[2][n];
            double[][] s = new double[2][n];
            for (int i = 0; i < n; i++) {
                long second = span[0] + i;
                h[0][i] = s[0][i] = second - startSecond(run);
                h[1][i] = run.healthyAt(second);
                s[1][i] = run.sleeperAt(second);
            }
            String line = fmt("stopped %.0f %% of every period", 100 * run.fraction());
            healthy.computeIfAbsent(run.protocol(), p -> new LinkedHashMap<>()).put(line, h);
            asleep.computeIfAbsent(run.protocol(), p -> new LinkedHashMap<>()).put(line, s);
        }
        List<Chart<?, ?>> all = new ArrayList<>();
        String x = "Time from the perturbation's start (s)";
        healthy.forEach((protocol, lines) -> all.add(Plots.steps(protocol + ": healthy members (real sockets)", x,
                "Messages delivered per second", lines, Set.of())));
        asleep.forEach((protocol, lines) -> all.add(Plots.steps(protocol + ": the stopped member (real sockets)", x,
                "Messages delivered per second", lines, Set.of())));
        return all;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
