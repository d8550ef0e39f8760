package io.ricochet.bench.fountain;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.experiment.FigureOptions;
import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import io.ricochet.sim.LayeredSimConfig;
import io.ricochet.sim.LayeredSimulation;
import io.ricochet.sim.LayeredTrace;
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
 * {@code bench layered}: the Digital Fountain paper's layered congestion control (section VII-A) in the
 * simulator. Five receivers behind bottlenecks of 1.5 x 2^k times the base rate (k = 0..4: fair levels 0..4) and a
 * sixth whose bottleneck of 24 x base halves halfway through the run (fair level 4, then 3). Writes the levels over
 * time (CSV), their plot (PNG) and a table of how close each receiver stays to its fair level.
 */
@Command(name = "layered",
        sortOptions = false,
        description = {
            "Simulates layered multicast congestion control (Digital Fountain paper, section VII-A): cumulative "
                + "layers at rates base, base, 2 base, 4 base ..., SPs every second (level-i SPs every 2^i s), "
                + "bursts at twice the rate before each SP, receivers joining and leaving from their own losses. "
                + "Receivers r0..r4 sit behind bottlenecks of 1.5 x 2^k x base packets/s (fair level k) with a "
                + "drop-tail queue; 'halved' has 24 x base, halved at half the run.",
            "Writes DOCS/figures/layered.csv (each receiver's level from each change on, with its fair level), "
                + "layered.png and layered.md (the table, also printed).",
            "",
        })
public final class LayeredCommand implements Callable<Integer> {
    private static final long SECOND = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "300",
            description = "Simulated time (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Fixes the receivers' start times (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--layers", paramLabel = "L", defaultValue = "6",
            description = "Layers, 6..16: the receivers need levels 0..5 (default: ${DEFAULT-VALUE}).")
    private int layers;

    @Option(names = "--base-pps", paramLabel = "PPS", defaultValue = "100",
            description = "Rate of layers 0 and 1 in packets/s, 10..10000 (default: ${DEFAULT-VALUE}).")
    private double basePps;

    @Option(names = "--queue", paramLabel = "PACKETS", defaultValue = "8",
            description = "Drop-tail queue of each bottleneck, 0..10000 (default: ${DEFAULT-VALUE}).")
    private int queue;

    @Option(names = "--burst-all-layers",
            description = "Every layer bursts before every SP (the paper's wording) rather than only the layers "
                    + "up to the SP's level.")
    private boolean burstAllLayers;

    @Option(names = "--random-loss", paramLabel = "P", defaultValue = "0",
            description = "Probability that a packet past its bottleneck is lost anyway (losses the layers did not "
                    + "cause), 0..0.5 (default: ${DEFAULT-VALUE}).")
    private double randomLoss;

    @Mixin
    private FigureOptions figures;

    @Override
    public Integer call() {
        check(seconds >= 10 && seconds <= 100_000, "--seconds " + seconds + ": must be in 10..100000");
        check(layers >= 6 && layers <= 16, "--layers " + layers + ": must be in 6..16");
        check(basePps >= 10 && basePps <= 10_000, "--base-pps " + basePps + ": must be in 10..10000");
        check(queue >= 0 && queue <= 10_000, "--queue " + queue + ": must be in 0..10000");
        check(randomLoss >= 0 && randomLoss <= 0.5, "--random-loss " + randomLoss + ": must be in 0..0.5");
        String files = figures.problem();
        check(files == null, files);
        LayeredSimConfig config = config(layers, basePps, queue, burstAllLayers, seconds * SECOND, seed, randomLoss);
        List<LayeredTrace> traces = new LayeredSimulation(config).run();
        String table = table(config, traces);
        return figures.write(csv(config, traces), charts(config, traces), table, System.out, System.err);
    }

    private void check(boolean ok, String message) {
        new OptionChecks(spec).check(ok, message);
    }

    /**
     * The experiment's network: SPs every second, 250 ms bursts, 50 ms join and leave latency, 10 ms from the
     * bottleneck to the receiver, a deaf period of half a second after a leave.
     */
    public static LayeredSimConfig config(int layers, double basePps, int queue, boolean burstAllLayers,
                                          long durationNs, long seed, double randomLoss) {
        List<LayeredSimConfig.Receiver> receivers = new ArrayList<>();
        for (int k = 0; k <= 4; k++) {
            receivers.add(LayeredSimConfig.Receiver.fixed("r" + k, 1.5 * basePps * (1 << k)));
        }
        receivers.add(new LayeredSimConfig.Receiver("halved", 24 * basePps, durationNs / 2, 12 * basePps));
        return new LayeredSimConfig(layers, basePps, SECOND, SECOND / 4, burstAllLayers, queue, SECOND / 20,
                SECOND / 20, SECOND / 100, SECOND / 2, durationNs, seed, randomLoss, receivers);
    }

    /** Each receiver's level from each change on, then at the end of the run, with the fair level then. */
    static String csv(LayeredSimConfig config, List<LayeredTrace> traces) {
        StringBuilder out = new StringBuilder("receiver,time_s,level,fair_level\n");
        for (LayeredTrace t : traces) {
            for (LayeredTrace.Change c : t.changes()) {
                out.append(row(t, c.timeNs(), c.level()));
            }
            out.append(row(t, config.durationNs(), t.levelAt(config.durationNs())));
        }
        return out.toString();
    }

    private static String row(LayeredTrace t, long timeNs, int level) {
        return String.format(Locale.ROOT, "%s,%.6f,%d,%d%n", t.name(), timeNs / 1e9, level,
                t.fair().applyAsInt(timeNs));
    }

    /** The levels over the last half of the run against the fair level, and the losses. */
    static String table(LayeredSimConfig config, List<LayeredTrace> traces) {
        long end = config.durationNs();
        MarkdownTable table = new MarkdownTable(List.of("receiver", "bottleneck (packets/s)", "fair level",
                "mean level, 2nd half", "time at fair level, 2nd half", "joins / leaves", "losses (in bursts)",
                "loss %"));
        for (int i = 0; i < traces.size(); i++) {
            LayeredTrace t = traces.get(i);
            LayeredSimConfig.Receiver r = config.receivers().get(i);
            int fairStart = t.fair().applyAsInt(0);
            int fairEnd = t.fair().applyAsInt(end - 1);
            table.row(List.of(t.name(),
                    r.changeAtNs() < 0 ? fmt("%.0f", r.pps())
                            : fmt("%.0f, %.0f from %.0f s", r.pps(), r.ppsAfter(), r.changeAtNs() / 1e9),
                    fairStart == fairEnd ? Integer.toString(fairEnd) : fairStart + ", then " + fairEnd,
                    fmt("%.2f", t.meanLevel(end / 2, end)),
                    fmt("%.1f %%", 100 * t.fractionAtFair(end / 2, end)),
                    t.joins() + " / " + t.leaves(),
                    t.losses() + " (" + t.burstLosses() + ")",
                    fmt("%.2f", 100.0 * t.losses() / Math.max(1, t.losses() + t.received()))));
        }
        return table.toString();
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** (a) the fixed bottlenecks, (b) the one that halves: each receiver's level, and its fair level dashed. */
    static List<Chart<?, ?>> charts(LayeredSimConfig config, List<LayeredTrace> traces) {
        Map<String, double[][]> fixed = new LinkedHashMap<>();
        Map<String, double[][]> changing = new LinkedHashMap<>();
        List<String> fairNames = new ArrayList<>();
        for (int i = 0; i < traces.size(); i++) {
            LayeredTrace t = traces.get(i);
            Map<String, double[][]> into = config.receivers().get(i).changeAtNs() < 0 ? fixed : changing;
            into.put(t.name(), levels(t, config.durationNs()));
            String fairName = t.name() + " fair";
            into.put(fairName, fair(t, config.receivers().get(i), config.durationNs()));
            fairNames.add(fairName);
        }
        String x = "Time (s)";
        String y = "Subscription level";
        return List.of(
                Plots.steps("(a) Fixed bottlenecks of 1.5 x 2^k x base", x, y, fixed, Set.copyOf(fairNames)),
                Plots.steps("(b) Bottleneck halved at " + config.durationNs() / 2 / SECOND + " s", x, y, changing,
                        Set.copyOf(fairNames)));
    }

    private static double[][] levels(LayeredTrace t, long endNs) {
        List<LayeredTrace.Change> changes = t.changes();
        double[][] xy = new double[2][changes.size() + 1];
        for (int i = 0; i < changes.size(); i++) {
            xy[0][i] = changes.get(i).timeNs() / 1e9;
            xy[1][i] = changes.get(i).level();
        }
        xy[0][changes.size()] = endNs / 1e9;
        xy[1][changes.size()] = t.levelAt(endNs);
        return xy;
    }

    private static double[][] fair(LayeredTrace t, LayeredSimConfig.Receiver r, long endNs) {
        if (r.changeAtNs() < 0) {
            int fair = t.fair().applyAsInt(0);
            return new double[][] {{0, endNs / 1e9}, {fair, fair}};
        }
        return new double[][] {{0, r.changeAtNs() / 1e9, endNs / 1e9},
            {t.fair().applyAsInt(0), t.fair().applyAsInt(r.changeAtNs()), t.fair().applyAsInt(endNs - 1)}};
    }
}
