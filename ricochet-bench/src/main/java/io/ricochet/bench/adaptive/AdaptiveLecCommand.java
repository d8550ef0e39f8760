package io.ricochet.bench.adaptive;

import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench adaptive-lec}: issue 36's comparison. One workload of the paper's section 5 (by default its reference
 * setting, n = 64, d = 128, s = 10, 1000 data packets/s arriving per node), under a loss that changes every
 * {@code --phase-seconds}: uniform 0.1 %, bursty 1 % in bursts of 50, uniform 5 %, uniform 0.1 % again. Four
 * protocols, every one with its NAK layer: LEC whose c tunes itself, fixed (8, 5) at stagger 1 and 6, and SRM.
 *
 * <pre>
 *   phase:     1            2                3             4
 *   loss:  uniform 0.1 % | bursty 1 %, b=50 | uniform 5 % | uniform 0.1 %
 * </pre>
 *
 * Per phase: LEC's share of the recoveries, recovery latency p50 / p99 over every recovery, repair overhead (LEC
 * repairs / (data + repairs) on the wire) and control packets per data packet; per second, the mean c and the
 * overhead. Writes OUT/adaptive-lec.csv (per phase), adaptive-lec-seconds.csv, adaptive-lec.png and adaptive-lec.md.
 */
@Command(name = "adaptive-lec",
        sortOptions = false,
        description = {
            "Compares LEC whose rate-of-fire tunes itself (issue 36) with fixed (8, 5) at stagger 1 and 6 and with "
                    + "SRM-style NAK, in the simulator, under loss that changes every --phase-seconds: uniform "
                    + "0.1 %%, bursty 1 %% (bursts of 50), uniform 5 %%, uniform 0.1 %%. Every protocol runs with "
                    + "its NAK layer.",
            "Writes OUT/adaptive-lec.csv (per phase), adaptive-lec-seconds.csv (per second), adaptive-lec.png and "
                    + "adaptive-lec.md (the table, also printed).",
            "",
        })
public final class AdaptiveLecCommand implements Callable<Integer> {
    static final String[] PHASES = {"uniform:0.001", "bursty:0.01:50", "uniform:0.05", "uniform:0.001"};
    private static final int PAYLOAD = 1024;
    private static final long LATENCY_NS = 50_000;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "64", description = "n (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--degree", paramLabel = "D", defaultValue = "128",
            description = "d, groups per node (default: ${DEFAULT-VALUE}).")
    private int degree;

    @Option(names = "--group-size", paramLabel = "S", defaultValue = "10",
            description = "s, members per group (default: ${DEFAULT-VALUE}).")
    private int groupSize;

    @Option(names = "--phase-seconds", paramLabel = "S", defaultValue = "20",
            description = "How long each loss phase lasts (default: ${DEFAULT-VALUE}).")
    private double phaseSeconds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "The run's seed (default: 1).")
    private long seed;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "2",
            description = "Simulations run at once (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "docs/results/adaptive-lec",
            description = "Where the files go (default: ${DEFAULT-VALUE}).")
    private Path out;

    private record Run(Variant variant, PhaseObserver phases, SimResult result, double wallSeconds) {
    }

    static String schedule(double phaseSeconds) {
        List<String> parts = new ArrayList<>();
        for (String p : PHASES) {
            parts.add(trim(phaseSeconds) + "@" + p);
        }
        return "phases:" + String.join(";", parts);
    }

    @Override
    public Integer call() throws Exception {
        String loss = schedule(phaseSeconds);
        double seconds = phaseSeconds * PHASES.length;
        System.err.printf(Locale.ROOT, "adaptive-lec: n=%d d=%d s=%d, %s, seed %d, %d threads, %d cores%n", nodes,
                degree, groupSize, loss, seed, threads, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Run> runs = new ArrayList<>();
        try {
            List<Future<Run>> futures = new ArrayList<>();
            for (Variant v : Variant.values()) {
                futures.add(pool.submit(() -> run(v, loss, seconds)));
            }
            for (Future<Run> f : futures) {
                runs.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        for (Run r : runs) {
            if (!r.result().verified()) {
                System.err.println("adaptive-lec: " + r.variant().label + " delivered " + r.result().corruptDeliveries()
                        + " corrupt and " + r.result().duplicateDeliveries() + " duplicate payloads");
                return 1;
            }
        }
        return write(runs, loss, seconds);
    }

    private Run run(Variant v, String loss, double seconds) {
        long start = System.nanoTime();
        SimConfig config = new SimConfig(nodes, degree, groupSize, v.protocol.factory(v.engine(PAYLOAD), PAYLOAD),
                LossSpec.parse(loss), LossScope.DATA, seconds, 1, 1000, PAYLOAD, LATENCY_NS, seed);
        Simulator simulator = new Simulator(config);
        PhaseObserver observer = new PhaseObserver(simulator, nodes, phaseSeconds, PHASES.length, seconds,
                LATENCY_NS);
        SimResult result = simulator.observe(observer).run(null);
        double wall = (System.nanoTime() - start) / 1e9;
        System.err.printf(Locale.ROOT, "adaptive-lec: %s done in %.0f s%n", v.label, wall);
        return new Run(v, observer, result, wall);
    }

    private int write(List<Run> runs, String loss, double seconds) throws IOException {
        StringBuilder csv = new StringBuilder("protocol,phase,loss,losses,lec_recovered,other_recovered,"
                + "lec_percent,latency_p50_ms,latency_p99_ms,repair_overhead_percent,nak_retransmit_per_data\n");
        MarkdownTable table = new MarkdownTable(List.of("phase", "loss", "protocol", "losses", "LEC recovery %",
                "latency p50 ms", "latency p99 ms", "repair overhead %", "NAK + retransmit / data", "mean c at end",
                "mean r at end"));
        for (int p = 0; p < PHASES.length; p++) {
            for (Run r : runs) {
                PhaseObserver o = r.phases();
                long losses = o.lec[p] + o.other[p];
                double lecPercent = losses == 0 ? Double.NaN : 100.0 * o.lec[p] / losses;
                double overhead = 100.0 * o.repairs[p] / (o.data[p] + o.repairs[p]);
                double controlPerData = (double) o.control[p] / o.data[p];
                double p50 = o.latencyMs(p, 0.50);
                double p99 = o.latencyMs(p, 0.99);
                int lastBin = (int) Math.min(o.binC.length - 1, (p + 1) * phaseSeconds - 1);
                csv.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.5f%n",
                        r.variant().name().toLowerCase(Locale.ROOT), p + 1, PHASES[p], losses, o.lec[p], o.other[p],
                        lecPercent, p50, p99, overhead, controlPerData));
                table.row(List.of(String.valueOf(p + 1), PHASES[p], r.variant().label, String.valueOf(losses),
                        f(lecPercent, 2), f(p50, 2), f(p99, 1), f(overhead, 2), f(controlPerData, 4),
                        r.variant().protocol == io.ricochet.protocols.ProtocolChoice.SRM ? "-"
                                : f(o.binC[lastBin], 2),
                        r.variant().protocol == io.ricochet.protocols.ProtocolChoice.SRM ? "-"
                                : f(o.binR[lastBin], 1)));
            }
        }
        StringBuilder perSecond =
                new StringBuilder("protocol,second,mean_c,mean_r,repair_overhead_percent,lec_percent\n");
        Map<String, double[][]> cLines = new LinkedHashMap<>();
        Map<String, double[][]> overheadLines = new LinkedHashMap<>();
        Map<String, double[][]> lecLines = new LinkedHashMap<>();
        int bins = (int) Math.ceil(seconds);
        for (Run r : runs) {
            PhaseObserver o = r.phases();
            double[] xs = new double[bins];
            double[] cs = new double[bins];
            double[] overhead = new double[bins];
            double[] lecPercent = new double[bins];
            for (int b = 0; b < bins; b++) {
                xs[b] = b;
                cs[b] = o.binC[b];
                long total = o.binData[b] + o.binRepairs[b];
                overhead[b] = total == 0 ? 0 : 100.0 * o.binRepairs[b] / total;
                long losses = o.binLec[b] + o.binOther[b];
                lecPercent[b] = losses == 0 ? Double.NaN : 100.0 * o.binLec[b] / losses;
                perSecond.append(String.format(Locale.ROOT, "%s,%d,%.3f,%.2f,%.3f,%.3f%n",
                        r.variant().name().toLowerCase(Locale.ROOT), b, cs[b], o.binR[b], overhead[b],
                        lecPercent[b]));
            }
            double[] zeros = new double[bins];
            if (r.variant().protocol != io.ricochet.protocols.ProtocolChoice.SRM) {
                cLines.put(r.variant().label, new double[][] {xs, nanToZero(cs)});
                lecLines.put(r.variant().label, new double[][] {xs, nanToZero(lecPercent), zeros});
            }
            overheadLines.put(r.variant().label, new double[][] {xs, overhead, zeros});
        }
        Map<String, List<Double>> p99 = new LinkedHashMap<>();
        Map<String, List<Double>> p50 = new LinkedHashMap<>();
        List<String> phaseNames = new ArrayList<>();
        for (int p = 0; p < PHASES.length; p++) {
            phaseNames.add((p + 1) + ": " + PHASES[p]);
        }
        for (Run r : runs) {
            List<Double> hi = new ArrayList<>();
            List<Double> lo = new ArrayList<>();
            for (int p = 0; p < PHASES.length; p++) {
                hi.add(nanToZero(r.phases().latencyMs(p, 0.99)));
                lo.add(nanToZero(r.phases().latencyMs(p, 0.50)));
            }
            p99.put(r.variant().label, hi);
            p50.put(r.variant().label, lo);
        }
        String setting = String.format(Locale.ROOT, "n=%d d=%d s=%d", nodes, degree, groupSize);
        List<Chart<?, ?>> charts = List.of(
                Plots.steps("Mean rate-of-fire c (" + setting + ")", "second", "c", cLines, Set.of()),
                Plots.measured("Repair overhead over time", "second", "LEC repairs / (data + repairs), %", false,
                        overheadLines),
                Plots.measured("LEC share of recoveries, per second", "second", "LEC recovery %", false, lecLines),
                Plots.bars("Recovery latency p50 per phase", "phase", "ms", phaseNames, p50),
                Plots.bars("Recovery latency p99 per phase", "phase", "ms", phaseNames, p99));
        Files.createDirectories(out);
        Files.writeString(out.resolve("adaptive-lec.csv"), csv, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("adaptive-lec-seconds.csv"), perSecond, StandardCharsets.UTF_8);
        Plots.writePng(charts, out.resolve("adaptive-lec.png"));
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%s, loss %s, seed %d, %s s of traffic + 1 s drain; wall seconds per run:",
                setting, loss, seed, trim(seconds)));
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, " %s %.0f;", r.variant().label, r.wallSeconds()));
        }
        md.append("\n\n").append(table);
        Files.writeString(out.resolve("adaptive-lec.md"), md, StandardCharsets.UTF_8);
        System.err.println("adaptive-lec: " + out.resolve("adaptive-lec.csv") + ", adaptive-lec-seconds.csv, "
                + "adaptive-lec.png and adaptive-lec.md written");
        System.out.print(md);
        return 0;
    }

    private static double[] nanToZero(double[] values) {
        double[] copy = values.clone();
        for (int i = 0; i < copy.length; i++) {
            if (Double.isNaN(copy[i])) {
                copy[i] = 0;
            }
        }
        return copy;
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static String f(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
