package io.ricochet.bench.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * A figure of line graphs over simulated points (Figures 9, 10, 12 - 15 and the comparisons). Its CSV and table
 * have one row per distinct (series, x) of its graphs, with every metric the graphs show (mean and sd over seeds)
 * and the number of losses behind the percentages; the table adds what the paper says of that point, if anything.
 */
public final class LineFigure implements Figure {
    private record Row(String series, String xName, double x, Setting setting) {
        String key() {
            return LineFigure.key(series, xName, x);
        }
    }

    private final String id;
    private final String title;
    private final String setup;
    private final String paperSays;
    private final List<Panel> panels;
    private final Map<String, String> paperByPoint;
    private final List<Metric> tableMetrics;

    private LineFigure(Builder b) {
        this.id = b.id;
        this.title = b.title;
        this.setup = b.setup;
        this.paperSays = b.paperSays;
        this.panels = List.copyOf(b.panels);
        this.paperByPoint = Map.copyOf(b.paperByPoint);
        this.tableMetrics = List.copyOf(b.tableMetrics);
    }

    public static Builder builder(String id, String title, String setup) {
        return new Builder(id, title, setup);
    }

    static String key(String series, String xName, double x) {
        return series + " @ " + xName + " = " + Numbers.plain(x);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public String setup() {
        return setup;
    }

    @Override
    public String paperSays() {
        return paperSays;
    }

    public List<Panel> panels() {
        return panels;
    }

    @Override
    public List<Setting> settings() {
        Set<Setting> settings = new LinkedHashSet<>();
        panels.forEach(p -> p.points().forEach(point -> settings.add(point.setting())));
        return List.copyOf(settings);
    }

    @Override
    public FigureOutput complete(TrialRunner runner) {
        Map<String, Row> rows = new LinkedHashMap<>();
        Set<Metric> metrics = new LinkedHashSet<>();
        for (Panel panel : panels) {
            metrics.addAll(panel.metrics());
            for (Point p : panel.points()) {
                Row row = new Row(p.series(), panel.xName(), p.x(), p.setting());
                Row before = rows.putIfAbsent(row.key(), row);
                if (before != null && !before.setting().equals(row.setting())) {
                    throw new IllegalStateException("figure " + id + ": two settings at " + row.key());
                }
            }
        }
        metrics.addAll(tableMetrics);
        metrics.add(Metric.LOSSES);
        List<String> csvHeader = new ArrayList<>(List.of("series", "x_name", "x"));
        List<String> tableHeader = new ArrayList<>(List.of("line", "point"));
        for (Metric m : metrics) {
            csvHeader.add(m.column() + "_mean");
            csvHeader.add(m.column() + "_sd");
            tableHeader.add(m.label());
        }
        csvHeader.addAll(List.of("runs", "setting"));
        tableHeader.add("paper");
        List<List<String>> csv = new ArrayList<>();
        MarkdownTable table = new MarkdownTable(tableHeader);
        for (Row row : rows.values()) {
            List<String> csvRow = new ArrayList<>(List.of(row.series(), row.xName(), Numbers.plain(row.x())));
            List<String> cells = new ArrayList<>(List.of(row.series(), row.xName() + " = " + Numbers.plain(row.x())));
            for (Metric m : metrics) {
                Stat s = runner.stat(row.setting(), m);
                csvRow.add(Double.isNaN(s.mean()) ? "" : Double.toString(s.mean()));
                csvRow.add(Double.isNaN(s.sd()) ? "" : Double.toString(s.sd()));
                cells.add(s.format(m.digits()));
            }
            csvRow.add(Integer.toString(runner.scale().seeds()));
            csvRow.add(row.setting().flags());
            cells.add(paperByPoint.getOrDefault(row.key(), ""));
            csv.add(csvRow);
            table.row(cells);
        }
        List<Chart<?, ?>> charts = new ArrayList<>();
        panels.forEach(p -> charts.add(Plots.lines(p, runner)));
        return new FigureOutput(csvHeader, csv, charts, table.toString());
    }

    /** Builds a {@link LineFigure}: its graphs, then the paper's values where its text gives them. */
    public static final class Builder {
        private final String id;
        private final String title;
        private final String setup;
        private String paperSays = "";
        private final List<Panel> panels = new ArrayList<>();
        private final Map<String, String> paperByPoint = new HashMap<>();
        private final List<Metric> tableMetrics = new ArrayList<>();

        private Builder(String id, String title, String setup) {
            this.id = id;
            this.title = title;
            this.setup = setup;
        }

        public Builder panel(Panel panel) {
            panels.add(panel);
            return this;
        }

        /**
         * The pair of graphs most of the paper's figures have: LEC recovery % and average LEC recovery latency,
         * over the same points.
         */
        public Builder recoveryAndLatency(String recoveryTitle, String latencyTitle, String xLabel, String xName,
                                          boolean log2X, List<Point> points) {
            panels.add(Panel.of(recoveryTitle, xLabel, xName, log2X, points, Metric.LEC_PERCENT));
            panels.add(Panel.of(latencyTitle, xLabel, xName, log2X, points, Metric.LEC_LATENCY_US));
            return this;
        }

        public Builder paperSays(String text) {
            paperSays = text;
            return this;
        }

        /** What the paper reports for the point ({@code series}, {@code xName} = {@code x}). */
        public Builder paper(String series, String xName, double x, String text) {
            paperByPoint.put(key(series, xName, x), text);
            return this;
        }

        /** Metrics shown in the table and CSV besides those of the graphs. */
        public Builder tableMetrics(Metric... metrics) {
            tableMetrics.addAll(List.of(metrics));
            return this;
        }

        public LineFigure build() {
            if (panels.isEmpty()) {
                throw new IllegalStateException("figure " + id + " has no graph");
            }
            Set<String> known = new LinkedHashSet<>();
            panels.forEach(p -> p.points().forEach(pt -> known.add(key(pt.series(), p.xName(), pt.x()))));
            for (String k : paperByPoint.keySet()) {
                if (!known.contains(k)) {
                    throw new IllegalStateException("figure " + id + ": paper value for " + k + ", not a point");
                }
            }
            return new LineFigure(this);
        }
    }
}
