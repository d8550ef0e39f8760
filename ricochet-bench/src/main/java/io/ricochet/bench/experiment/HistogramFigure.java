package io.ricochet.bench.experiment;

import io.ricochet.sim.SimResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Figure 8: the distribution of recovery latencies with LEC and the NAK layer both on, one graph per loss rate,
 * bars split into recoveries by LEC and by NAK. The paper shows single runs; we pool the recoveries of every
 * seed's run, so each bar is a share of all recoveries of that loss rate.
 */
public final class HistogramFigure implements Figure {
    /** Figure 8's bound: "we are able to recover all packets within 250 milliseconds" (section 5.1). */
    static final double BOUND_MS = 250;

    private final Setting base;
    private final double[] lossRates;
    private final Map<Double, String> paper;

    public HistogramFigure(Setting base, double[] lossRates, Map<Double, String> paper) {
        this.base = base;
        this.lossRates = lossRates.clone();
        this.paper = Map.copyOf(paper);
    }

    @Override
    public String id() {
        return "8";
    }

    @Override
    public String title() {
        return "Figure 8: Distribution of Recoveries: LEC + NAK for varying degrees of loss";
    }

    @Override
    public String setup() {
        return "(n = 16, d = 128, s = 10), Loss Model: Uniform, [10%, 15%, 20%]; NAKs 100 ms after discovery, "
                + "retried every 50 ms";
    }

    @Override
    public String paperSays() {
        return "\"even with a recovery percentage as low as 84% in Figure 8(c), we are able to recover all packets "
                + "within 250 milliseconds\" (section 5.1)";
    }

    private Setting setting(double loss) {
        return base.loss("uniform:" + Numbers.plain(loss));
    }

    @Override
    public List<Setting> settings() {
        List<Setting> settings = new ArrayList<>();
        for (double loss : lossRates) {
            settings.add(setting(loss));
        }
        return settings;
    }

    @Override
    public FigureOutput complete(TrialRunner runner) {
        List<List<String>> csv = new ArrayList<>();
        List<Chart<?, ?>> charts = new ArrayList<>();
        MarkdownTable table = new MarkdownTable(List.of("loss", "LEC recovery %", "NAK recovery %", "unrecovered",
                "recovered within 250 ms (% of losses)", "max recovery latency (ms)", "losses", "paper"));
        char panel = 'a';
        for (double loss : lossRates) {
            List<SimResult> runs = runner.results(setting(loss));
            List<SimResult.HistogramBin> pooled = pool(runs);
            long recoveries = pooled.stream().mapToLong(b -> b.lec() + b.nak()).sum();
            long losses = runs.stream().mapToLong(SimResult::losses).sum();
            long withinBound = pooled.stream().filter(b -> b.toMs() <= BOUND_MS).mapToLong(b -> b.lec() + b.nak())
                    .sum();
            List<String> categories = new ArrayList<>();
            Map<String, List<Double>> layers = new LinkedHashMap<>();
            layers.put("LEC", new ArrayList<>());
            layers.put("NAK", new ArrayList<>());
            for (SimResult.HistogramBin bin : pooled) {
                double lecPct = percent(bin.lec(), recoveries);
                double nakPct = percent(bin.nak(), recoveries);
                String to = Double.isInfinite(bin.toMs()) ? "" : Numbers.plain(bin.toMs());
                csv.add(List.of(Numbers.plain(loss), Numbers.plain(bin.fromMs()), to, Long.toString(bin.lec()),
                        Long.toString(bin.nak()), Double.toString(lecPct), Double.toString(nakPct)));
                categories.add(Double.isInfinite(bin.toMs()) ? "≥" + Numbers.plain(bin.fromMs())
                        : Numbers.plain(bin.fromMs()));
                layers.get("LEC").add(lecPct);
                layers.get("NAK").add(nakPct);
            }
            charts.add(Plots.stackedBars("(" + panel++ + ") " + Numbers.plain(loss * 100) + "% Loss Rate",
                    "Milliseconds (bins of " + Numbers.plain(pooled.get(0).toMs() - pooled.get(0).fromMs())
                            + " ms, by start)", "Percentage of recoveries", categories, layers));
            double maxMs = runs.stream().mapToDouble(r -> r.recoveryLatencyMs().max()).max().orElse(Double.NaN);
            table.row(List.of(Numbers.plain(loss * 100) + " %",
                    runner.stat(setting(loss), Metric.LEC_PERCENT).format(2),
                    Stat.of(runs.stream().map(SimResult::nakRecoveryPercent).toList()).format(2),
                    Long.toString(runs.stream().mapToLong(SimResult::unrecovered).sum()),
                    Numbers.fixed(percent(withinBound, losses), 2), Numbers.fixed(maxMs, 1),
                    Long.toString(losses), paper.getOrDefault(loss, "")));
        }
        return new FigureOutput(List.of("loss", "from_ms", "to_ms", "lec_recoveries", "nak_recoveries",
                "lec_pct_of_recoveries", "nak_pct_of_recoveries"), csv, charts, table.toString());
    }

    /** The histograms of {@code runs} added bin by bin (every run has the same bins). */
    static List<SimResult.HistogramBin> pool(List<SimResult> runs) {
        List<SimResult.HistogramBin> first = runs.get(0).recoveryHistogram();
        List<SimResult.HistogramBin> pooled = new ArrayList<>();
        for (int i = 0; i < first.size(); i++) {
            long lec = 0;
            long nak = 0;
            for (SimResult r : runs) {
                lec += r.recoveryHistogram().get(i).lec();
                nak += r.recoveryHistogram().get(i).nak();
            }
            pooled.add(new SimResult.HistogramBin(first.get(i).fromMs(), first.get(i).toMs(), lec, nak));
        }
        return pooled;
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }
}
