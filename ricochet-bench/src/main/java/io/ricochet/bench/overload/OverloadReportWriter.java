package io.ricochet.bench.overload;

import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.Plots;
import io.ricochet.bench.load.JsonFiles;
import io.ricochet.bench.load.LoadReport;
import io.ricochet.bench.load.PromiseTally;
import io.ricochet.bench.load.SinkReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes the overload report: {@code timeline.json} (settings, verdict, every interval), {@code table.md} (the
 * verdict and the intervals as a table) and, if asked, {@code timeline.png} (the rates over time, drawn with
 * {@link Plots}). Values not measured are null in the JSON and "-" in the table.
 */
final class OverloadReportWriter {
    private final Map<String, String> info;
    private final Timeline timeline;
    private final Verdict verdict;
    private final SinkReport sink;
    private final List<LoadReport> loads;

    OverloadReportWriter(Map<String, String> info, Timeline timeline, Verdict verdict, SinkReport sink,
                         List<LoadReport> loads) {
        this.info = Map.copyOf(info);
        this.timeline = timeline;
        this.verdict = verdict;
        this.sink = sink;
        this.loads = List.copyOf(loads);
    }

    void write(Path dir, boolean png) throws IOException {
        Files.createDirectories(dir);
        JsonFiles.write(dir.resolve("timeline.json"), json());
        Files.writeString(dir.resolve("table.md"), markdown(), StandardCharsets.UTF_8);
        if (png) {
            Plots.writePng(charts(), dir.resolve("timeline.png"));
        }
    }

    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("info", new java.util.TreeMap<>(info));
        out.put("verdict", verdictJson());
        out.put("fallEpochMillis", timeline.fallEpochMillis());
        out.put("generatorStartSkewSeconds", timeline.startSkewSeconds());
        Map<String, Object> sinkTotals = new LinkedHashMap<>();
        sinkTotals.put("delivered", sink.delivered());
        sinkTotals.put("lost", sink.lost());
        sinkTotals.put("duplicates", sink.duplicates());
        sinkTotals.put("both", sink.both());
        sinkTotals.put("overflowedDeliveries", sink.overflowedDeliveries());
        sinkTotals.put("namedDrops", sink.namedDrops());
        sinkTotals.put("graceSeconds", sink.graceSeconds());
        sinkTotals.put("promiseError", sink.promiseError());
        out.put("sink", sinkTotals);
        List<Map<String, Object>> generators = new ArrayList<>();
        for (LoadReport l : loads) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("nodeId", l.nodeId());
            g.put("schedule", l.schedule());
            g.put("startEpochMillis", l.startEpochMillis());
            g.put("sent", l.sent());
            g.put("behindAtEnd", l.behindAtEnd());
            g.put("naksReceived", l.naksReceived());
            g.put("retransmitsSent", l.retransmitsSent());
            g.put("goneSent", l.goneSent());
            g.put("cpuPercentOfCore", l.cpuPercentOfCore());
            generators.add(g);
        }
        out.put("generators", generators);
        List<Map<String, Object>> bins = new ArrayList<>();
        for (TimelineBin b : timeline.bins()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("t", round(b.t(), 3));
            m.put("seconds", round(b.seconds(), 3));
            m.put("phase", b.phase());
            m.put("offered", round(b.offered(), 1));
            m.put("received", round(b.received(), 1));
            m.put("delivered", round(b.delivered(), 1));
            m.put("lost", round(b.lost(), 1));
            m.put("kernelDrops", round(b.kernelDrops(), 1));
            m.put("rxRandomDrops", round(b.rxRandomDrops(), 1));
            m.put("naksSent", round(b.naksSent(), 1));
            m.put("daemonCpuPercent", round(b.daemonCpu(), 1));
            bins.add(m);
        }
        out.put("bins", bins);
        return out;
    }

    private Map<String, Object> verdictJson() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("passed", verdict.passed());
        v.put("collapsed", verdict.collapsed());
        v.put("enoughData", verdict.enoughData());
        v.put("timeToCleanSeconds", round(verdict.timeToClean(), 3));
        v.put("cleanWithinSeconds", verdict.cleanWithin());
        v.put("tolerance", verdict.tolerance());
        v.put("afterBins", verdict.afterBins());
        v.put("cleanAfterBins", verdict.cleanAfterBins());
        v.put("overloadOffered", round(verdict.overloadOffered(), 1));
        v.put("overloadDelivered", round(verdict.overloadDelivered(), 1));
        v.put("afterOffered", round(verdict.afterOffered(), 1));
        v.put("afterDelivered", round(verdict.afterDelivered(), 1));
        v.put("promiseKept", verdict.promiseKept());
        v.put("promise", verdict.promise());
        return v;
    }

    /** The verdict in a few lines of text (also the head of the markdown). */
    String summary() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "overload: offered %s/s, delivered %s/s (means over the phase)%n",
                whole(verdict.overloadOffered()), whole(verdict.overloadDelivered())));
        out.append(String.format(Locale.ROOT, "after: offered %s/s, delivered %s/s; %d of %d intervals clean "
                        + "(delivered >= %.0f %% of offered)%n", whole(verdict.afterOffered()),
                whole(verdict.afterDelivered()), verdict.cleanAfterBins(), verdict.afterBins(),
                100 * (1 - verdict.tolerance())));
        out.append(String.format(Locale.ROOT, "time to clean delivery: %s (limit %s s): %s%n",
                Double.isNaN(verdict.timeToClean()) ? "never" : String.format(Locale.ROOT, "%.1f s",
                        verdict.timeToClean()), plain(verdict.cleanWithin()),
                !verdict.enoughData() ? "TOO FEW INTERVALS to judge" : verdict.collapsed() ? "COLLAPSE"
                        : "no collapse"));
        PromiseTally p = verdict.promise();
        if (p == null) {
            out.append("promise: NOT CHECKED").append(sink.promiseError() == null ? "" : " (" + sink.promiseError()
                    + ")").append('\n');
        } else {
            out.append(String.format(Locale.ROOT, "promise over %d streams, %d packets sent: %d delivered, %d lost, "
                            + "%d both, %d neither (%d of them tails never heard of), %d duplicates, %d unexpected: "
                            + "%s%n", p.streams(), p.expected(), p.delivered(), p.lost(), p.both(), p.neither(),
                    p.neitherTail(), p.duplicates(), p.unexpected(),
                    p.kept() ? "kept" : "BROKEN"));
        }
        if (sink.overflowedDeliveries() > 0) {
            // docs/api.md, "Backpressure": the daemon drops DELIVER and LOST frames for a connection that reads too
            // slowly, says how many (OVERFLOW) and which (DROPPED); the promise counts the named ones as reported.
            out.append(String.format(Locale.ROOT, "  the sink read too slowly: the daemon dropped %d of its "
                            + "deliveries (OVERFLOW) and named %d of the packets sent in DROPPED runs%n",
                    sink.overflowedDeliveries(), sink.namedDrops()));
        }
        out.append(String.format(Locale.ROOT, "generators started %.2f s apart; sink overflowed %d deliveries%n",
                timeline.startSkewSeconds(), sink.overflowedDeliveries()));
        out.append("verdict: ").append(verdict.passed() ? "PASSED" : "FAILED").append('\n');
        return out.toString();
    }

    String markdown() {
        StringBuilder out = new StringBuilder("# Daemon overload\n\n");
        new java.util.TreeMap<>(info).forEach((k, v) -> out.append("- ").append(k).append(": ").append(v)
                .append('\n'));
        out.append("\n```\n").append(summary()).append("```\n\n");
        MarkdownTable table = new MarkdownTable(List.of("t (s)", "phase", "offered /s", "daemon received /s",
                "sink delivered /s", "lost /s", "kernel drops /s", "RX buffer drops /s", "NAKs sent /s",
                "daemon CPU %"));
        for (TimelineBin b : timeline.bins()) {
            table.row(List.of(String.format(Locale.ROOT, "%.1f", b.t()), b.phase(), whole(b.offered()),
                    whole(b.received()), whole(b.delivered()), whole(b.lost()), whole(b.kernelDrops()),
                    whole(b.rxRandomDrops()), whole(b.naksSent()), whole(b.daemonCpu())));
        }
        return out.append(table).toString();
    }

    private List<Chart<?, ?>> charts() {
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(Plots.measured("Packets per second", "Seconds from the fall of the load", "Per second", false,
                lines(Map.of("offered", TimelineBin::offered, "daemon received", TimelineBin::received,
                        "sink delivered", TimelineBin::delivered, "lost notices", TimelineBin::lost),
                        List.of("offered", "daemon received", "sink delivered", "lost notices"))));
        charts.add(Plots.measured("Drops and NAKs per second", "Seconds from the fall of the load", "Per second",
                false, lines(Map.of("kernel drops", TimelineBin::kernelDrops, "RX buffer drops",
                        TimelineBin::rxRandomDrops, "NAKs sent", TimelineBin::naksSent),
                        List.of("kernel drops", "RX buffer drops", "NAKs sent"))));
        charts.add(Plots.measured("Daemon CPU", "Seconds from the fall of the load", "Percent of one core", false,
                lines(Map.of("daemon CPU", TimelineBin::daemonCpu), List.of("daemon CPU"))));
        return charts;
    }

    /** The lines named in {@code order}, each over the intervals' middles, leaving out values not measured. */
    private Map<String, double[][]> lines(Map<String, ToDoubleFunction<TimelineBin>> values, List<String> order) {
        Map<String, double[][]> lines = new LinkedHashMap<>();
        for (String name : order) {
            List<double[]> points = new ArrayList<>();
            for (TimelineBin b : timeline.bins()) {
                double y = values.get(name).applyAsDouble(b);
                if (!Double.isNaN(y)) {
                    points.add(new double[] {b.t() + b.seconds() / 2, y});
                }
            }
            if (points.isEmpty()) {
                continue;
            }
            double[][] xyError = new double[3][points.size()];
            for (int i = 0; i < points.size(); i++) {
                xyError[0][i] = points.get(i)[0];
                xyError[1][i] = points.get(i)[1];
            }
            lines.put(name, xyError);
        }
        if (lines.isEmpty()) {
            lines.put("nothing measured", new double[][] {{0}, {0}, {0}});
        }
        return lines;
    }

    private static Double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return null;
        }
        double scale = Math.pow(10, digits);
        return Math.round(v * scale) / scale;
    }

    private static String whole(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
