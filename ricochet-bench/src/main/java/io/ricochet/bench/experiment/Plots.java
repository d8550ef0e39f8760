package io.ricochet.bench.experiment;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The figures' graphs (XChart), and the PNG that puts a figure's graphs side by side. */
public final class Plots {
    static final int PANEL_WIDTH = 620;
    static final int PANEL_HEIGHT = 440;
    private static final int PANELS_PER_ROW = 3;

    private Plots() {
    }

    /** A line graph of {@code panel}: one line per series and metric, mean over seeds with ±sd error bars. */
    public static XYChart lines(Panel panel, TrialRunner runner) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(panel.title())
                .xAxisTitle(panel.xLabel() + (panel.log2X() ? " (log scale)" : ""))
                .yAxisTitle(axisTitle(panel.left())).build();
        style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(panel.logY());
        if (panel.log2X()) {
            log2Axis(chart);
        }
        Map<String, List<Point>> lines = panel.lines();
        boolean nameBySeries = lines.size() > 1;
        boolean nameByMetric = panel.metrics().size() > 1;
        for (Metric metric : panel.metrics()) {
            for (Map.Entry<String, List<Point>> line : lines.entrySet()) {
                String name = nameBySeries && nameByMetric ? line.getKey() + ", " + metric.label()
                        : nameBySeries ? line.getKey() : metric.label();
                boolean right = metric == panel.right();
                XYSeries series = addLine(chart, name, line.getValue(), metric, runner, panel.log2X(),
                        !right && panel.logY());
                if (series != null && right) {
                    series.setYAxisGroup(1);
                    chart.setYAxisGroupTitle(1, metric.label());
                    chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
                }
            }
        }
        return chart;
    }

    private static XYSeries addLine(XYChart chart, String name, List<Point> points, Metric metric,
                                    TrialRunner runner, boolean log2X, boolean logY) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        for (Point p : points) {
            Stat s = runner.stat(p.setting(), metric);
            if (s.n() == 0 || (logY && s.mean() <= 0)) {
                continue; // no value at this point (e.g. no LEC recovery at all): a gap, not a zero
            }
            xs.add(log2X ? log2(p.x()) : p.x());
            ys.add(s.mean());
            errors.add(s.sd());
        }
        if (xs.isEmpty()) {
            return null;
        }
        XYSeries series = logY ? chart.addSeries(name, xs, ys) : chart.addSeries(name, xs, ys, errors);
        series.setMarker(SeriesMarkers.CIRCLE);
        return series;
    }

    /** A stacked bar graph: one bar per category, one stack layer per series (Figure 8's LEC / NAK split). */
    public static CategoryChart stackedBars(String title, String xLabel, String yLabel, List<String> categories,
                                            Map<String, List<Double>> layers) {
        return bars(title, xLabel, yLabel, categories, layers, true);
    }

    /** A bar graph: one group of bars per category, one bar per series side by side (e.g. a histogram, twice). */
    public static CategoryChart bars(String title, String xLabel, String yLabel, List<String> categories,
                                     Map<String, List<Double>> series) {
        return bars(title, xLabel, yLabel, categories, series, false);
    }

    private static CategoryChart bars(String title, String xLabel, String yLabel, List<String> categories,
                                      Map<String, List<Double>> series, boolean stacked) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        style(chart.getStyler());
        chart.getStyler().setStacked(stacked);
        chart.getStyler().setXAxisLabelRotation(90);
        series.forEach((name, values) -> chart.addSeries(name, categories, values));
        return chart;
    }

    /** An XY graph of lines given as points (x, y ± error): for values that are not simulation metrics. */
    public static XYChart measured(String title, String xLabel, String yLabel, boolean log2X,
                                   Map<String, double[][]> lines) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xLabel + (log2X ? " (log scale)" : "")).yAxisTitle(yLabel).build();
        style(chart.getStyler());
        chart.getStyler().setYAxisMin(0.0); // times and counts: an error bar never takes the axis below zero
        if (log2X) {
            log2Axis(chart);
        }
        lines.forEach((name, xyError) -> {
            double[] xs = xyError[0].clone();
            if (log2X) {
                for (int i = 0; i < xs.length; i++) {
                    xs[i] = log2(xs[i]);
                }
            }
            chart.addSeries(name, xs, xyError[1], xyError[2]).setMarker(SeriesMarkers.CIRCLE);
        });
        return chart;
    }

    /**
     * A graph of step lines over time (a value that holds until it changes, e.g. a subscription level): each line
     * is its points {xs, ys}, each y holding from its x to the next; a line named in {@code dashed} is drawn dashed
     * in the colour of the line before it (a reference for it, e.g. its fair level).
     */
    public static XYChart steps(String title, String xLabel, String yLabel, Map<String, double[][]> lines,
                                Set<String> dashed) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        style(chart.getStyler());
        Color[] palette = chart.getStyler().getSeriesColors();
        int colour = -1;
        for (Map.Entry<String, double[][]> line : lines.entrySet()) {
            String name = line.getKey();
            double[][] xy = line.getValue();
            int n = xy[0].length;
            double[] xs = new double[Math.max(0, 2 * n - 1)];
            double[] ys = new double[xs.length];
            for (int i = 0; i < n; i++) { // a corner before each change: (x_i, y_(i-1)) then (x_i, y_i)
                if (i > 0) {
                    xs[2 * i - 1] = xy[0][i];
                    ys[2 * i - 1] = xy[1][i - 1];
                }
                xs[2 * i] = xy[0][i];
                ys[2 * i] = xy[1][i];
            }
            XYSeries series = chart.addSeries(name, xs, ys);
            series.setMarker(SeriesMarkers.NONE);
            if (dashed.contains(name)) {
                series.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                        new float[] {6f, 4f}, 0f));
            } else {
                colour++;
            }
            series.setLineColor(palette[Math.max(0, colour) % palette.length]);
        }
        return chart;
    }

    /**
     * An XY graph on a logarithmic y axis from {@code floor} up (probabilities spanning many decades): lines with
     * markers, or markers alone for the lines named in {@code markersOnly} (sampled values with gaps); points below
     * {@code floor} are left out.
     */
    public static XYChart logY(String title, String xLabel, String yLabel, Map<String, double[][]> lines,
                               Set<String> markersOnly, double floor) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel + " (log scale)").build();
        style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(floor);
        chart.getStyler().setYAxisMax(1.0);
        lines.forEach((name, xy) -> {
            int kept = 0;
            double[] xs = new double[xy[0].length];
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                if (xy[1][i] >= floor) {
                    xs[kept] = xy[0][i];
                    ys[kept++] = xy[1][i];
                }
            }
            if (kept > 0) {
                XYSeries series = chart.addSeries(name, java.util.Arrays.copyOf(xs, kept),
                        java.util.Arrays.copyOf(ys, kept));
                series.setMarker(SeriesMarkers.CIRCLE);
                if (markersOnly.contains(name)) {
                    series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                }
            }
        });
        return chart;
    }

    /** x is drawn as log2(x) on a linear axis, labelled with x: ticks at 2, 4, 8 ... as the paper's axes. */
    private static void log2Axis(XYChart chart) {
        chart.getStyler().setXAxisTickMarkSpacingHint(30);
        chart.setCustomXAxisTickLabelsFormatter(v -> Math.abs(v - Math.rint(v)) < 1e-9
                ? Numbers.plain(Math.pow(2, Math.rint(v))) : "");
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    private static String axisTitle(List<Metric> metrics) {
        if (metrics.size() == 1) {
            return metrics.get(0).label();
        }
        boolean percents = metrics.stream().allMatch(m -> m.label().endsWith("%"));
        return percents ? "Percentage" : metrics.stream().map(Metric::label).reduce((a, b) -> a + " / " + b)
                .orElseThrow();
    }

    private static void style(Styler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendBorderColor(Color.LIGHT_GRAY);
        styler.setMarkerSize(6);
        styler.setAntiAlias(true);
    }

    /** Draws {@code panels} side by side (three to a row) into one PNG at {@code png}. */
    public static void writePng(List<Chart<?, ?>> panels, Path png) throws IOException {
        if (panels.isEmpty()) {
            throw new IllegalArgumentException("no graph to draw");
        }
        int columns = Math.min(PANELS_PER_ROW, panels.size());
        int rows = (panels.size() + columns - 1) / columns;
        BufferedImage image = new BufferedImage(columns * PANEL_WIDTH, rows * PANEL_HEIGHT,
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int i = 0; i < panels.size(); i++) {
                Graphics2D cell = (Graphics2D) g.create((i % columns) * PANEL_WIDTH, (i / columns) * PANEL_HEIGHT,
                        PANEL_WIDTH, PANEL_HEIGHT);
                try {
                    panels.get(i).paint(cell, PANEL_WIDTH, PANEL_HEIGHT);
                } finally {
                    cell.dispose();
                }
            }
        } finally {
            g.dispose();
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("no PNG writer in this Java runtime");
        }
    }
}
