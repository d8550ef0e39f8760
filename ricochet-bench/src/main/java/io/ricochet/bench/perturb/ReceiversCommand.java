package io.ricochet.bench.perturb;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.experiment.FigureOptions;
import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import io.ricochet.sim.SimResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench receivers}: Bimodal Multicast's bimodal delivery distribution, measured in the simulator. One group
 * of n members, all sending; for each protocol, how many messages reached exactly k of the n - 1 other members,
 * from the original multicast alone (before recovery) and by the end of the run (after recovery).
 */
@Command(name = "receivers",
        sortOptions = false,
        description = {
            "Simulates one group of --nodes members under --loss and counts, for every message, the members that "
                + "delivered it: from the original multicast alone (before recovery) and by the end of the run "
                + "(after). Bimodal Multicast's claim is that after recovery a message reaches almost all members "
                + "or almost none.",
            "Writes DOCS/figures/NAME.csv (the histograms), NAME.png and NAME.md (the table, also printed).",
            "",
        })
public final class ReceiversCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--protocols", paramLabel = "LIST", defaultValue = "pbcast,ipmc",
            description = "simulate --protocol names, comma-separated; pbcast:VARIANT for a Bimodal Multicast "
                    + "variant, qsm:MS for QSM with that token hold (default: ${DEFAULT-VALUE}).")
    private String protocols;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "32",
            description = "Members of the one group, 3..128 (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--loss", paramLabel = "MODEL", defaultValue = "uniform:0.05",
            description = "simulate --loss, at every receiver (default: ${DEFAULT-VALUE}).")
    private String loss;

    @Option(names = "--loss-scope", paramLabel = "SCOPE", defaultValue = "all",
            description = "simulate --loss-scope: data, or all (gossip and retransmissions are lost too) "
                    + "(default: ${DEFAULT-VALUE}).")
    private String lossScope;

    @Option(names = "--rate-per-node", paramLabel = "PPS", defaultValue = "1000",
            description = "Data packets per second arriving at each member (default: ${DEFAULT-VALUE}).")
    private double ratePerNode;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "5",
            description = "Measured simulated seconds, 1..60 (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--perturb", paramLabel = "NODE:FRACTION[:PERIOD_MS]",
            description = "simulate --perturb: a member that sleeps, for messages that miss it (default: none).")
    private String perturb;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "simulate --seed (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private FigureOptions figures;

    /** One protocol's two histograms (index k: messages delivered by exactly k of the other members). */
    record Histograms(String protocol, long[] before, long[] after, SimResult result) {
    }

    @Override
    public Integer call() {
        check(nodes >= 3 && nodes <= 128, "--nodes " + nodes + ": must be in 3..128");
        check(seconds >= 1 && seconds <= 60, "--seconds " + seconds + ": must be in 1..60");
        String files = figures.problem();
        check(files == null, files);
        List<String> entries = parsed(() -> ProtocolEntries.parse("--protocols", protocols));
        Map<String, SimulationRun> runs = new LinkedHashMap<>();
        for (String entry : entries) {
            runs.put(entry, parsed(() -> new SimulationRun(flags(entry))));
        }
        List<Histograms> out = new ArrayList<>();
        runs.forEach((entry, run) -> {
            ReceiverCounts counts = new ReceiverCounts(nodes - 1, run.config().measuredNs());
            SimResult result = run.run(counts);
            out.add(new Histograms(entry, counts.beforeRecovery(), counts.afterRecovery(), result));
        });
        String table = table(out);
        int written = figures.write(csv(out), charts(out), table, System.out, System.err);
        if (written != 0) {
            return written;
        }
        return out.stream().allMatch(h -> h.result().verified()) ? 0 : 1;
    }

    private List<String> flags(String entry) {
        List<String> flags = new ArrayList<>(ProtocolEntries.flags(entry));
        flags.addAll(List.of("--nodes", Integer.toString(nodes), "--degree", "1", "--group-size",
                Integer.toString(nodes), "--rate-per-node", Double.toString(ratePerNode), "--loss", loss,
                "--loss-scope", lossScope, "--seconds", Double.toString(seconds), "--seed", Long.toString(seed)));
        if (perturb != null) {
            flags.addAll(List.of("--perturb", perturb));
        }
        return flags;
    }

    private <T> T parsed(java.util.function.Supplier<T> parse) {
        return new OptionChecks(spec).parsed(parse);
    }

    private void check(boolean ok, String message) {
        new OptionChecks(spec).check(ok, message);
    }

    /** One row per protocol and receiver count. */
    static String csv(List<Histograms> all) {
        StringBuilder out = new StringBuilder("protocol,receivers,messages_before_recovery,messages_after_recovery\n");
        for (Histograms h : all) {
            for (int k = 0; k < h.before().length; k++) {
                out.append(h.protocol()).append(',').append(k).append(',').append(h.before()[k]).append(',')
                        .append(h.after()[k]).append('\n');
            }
        }
        return out.toString();
    }

    /** Per protocol: messages, how many reached every member, how many at most half, the fewest reached. */
    static String table(List<Histograms> all) {
        MarkdownTable table = new MarkdownTable(List.of("protocol", "messages", "reached all, before recovery",
                "reached all, after", "reached at most half, before", "reached at most half, after",
                "fewest receivers, before / after", "mean receivers, before / after"));
        for (Histograms h : all) {
            int n = h.before().length - 1;
            long messages = java.util.Arrays.stream(h.before()).sum();
            table.row(List.of(h.protocol(), Long.toString(messages), share(h.before()[n], messages),
                    share(h.after()[n], messages), share(upTo(h.before(), n / 2), messages),
                    share(upTo(h.after(), n / 2), messages), fewest(h.before()) + " / " + fewest(h.after()),
                    fmt("%.2f / %.2f", mean(h.before()), mean(h.after())) + " of " + n));
        }
        return table.toString();
    }

    private static long upTo(long[] histogram, int k) {
        long sum = 0;
        for (int i = 0; i <= k; i++) {
            sum += histogram[i];
        }
        return sum;
    }

    private static int fewest(long[] histogram) {
        for (int k = 0; k < histogram.length; k++) {
            if (histogram[k] > 0) {
                return k;
            }
        }
        return histogram.length - 1;
    }

    private static double mean(long[] histogram) {
        long count = 0;
        double sum = 0;
        for (int k = 0; k < histogram.length; k++) {
            count += histogram[k];
            sum += (double) k * histogram[k];
        }
        return count == 0 ? 0 : sum / count;
    }

    private static String share(long part, long whole) {
        return part + " (" + fmt("%.2f %%", whole == 0 ? 0.0 : 100.0 * part / whole) + ")";
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** Per protocol, the share of messages reached by k members, before and after recovery side by side. */
    static List<Chart<?, ?>> charts(List<Histograms> all) {
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (Histograms h : all) {
            List<String> ks = new ArrayList<>();
            for (int k = 0; k < h.before().length; k++) {
                ks.add(Integer.toString(k));
            }
            Map<String, List<Double>> series = new LinkedHashMap<>();
            series.put("before recovery", percents(h.before()));
            series.put("after recovery", percents(h.after()));
            charts.add(Plots.bars(h.protocol() + ": receivers per message", "Members that delivered the message",
                    "% of messages", ks, series));
        }
        return charts;
    }

    private static List<Double> percents(long[] histogram) {
        long total = java.util.Arrays.stream(histogram).sum();
        List<Double> out = new ArrayList<>();
        for (long v : histogram) {
            out.add(total == 0 ? 0.0 : 100.0 * v / total);
        }
        return out;
    }
}
