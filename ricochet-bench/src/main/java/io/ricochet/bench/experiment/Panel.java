package io.ricochet.bench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One graph of a figure, as the paper draws it: its points (one line per series), the metrics on the left y-axis
 * and at most one on the right (Figure 9 puts latency there), and the axes' scales.
 *
 * @param title  the graph's title, e.g. "(a) Changing c, fixed r = 8"
 * @param xLabel the x-axis title, e.g. "Groups per Node"
 * @param xName  x's short name in tables and CSV, e.g. "d"
 * @param log2X  the x-axis is logarithmic, ticks at powers of two (the paper's "Log Scale" axes)
 * @param logY   the left y-axis is logarithmic (latencies over orders of magnitude)
 * @param points the points, in drawing order
 * @param left   metrics on the left y-axis
 * @param right  metric on the right y-axis, or null
 */
public record Panel(String title, String xLabel, String xName, boolean log2X, boolean logY, List<Point> points,
                    List<Metric> left, Metric right) {

    public Panel {
        Objects.requireNonNull(title, "title");
        points = List.copyOf(points);
        left = List.copyOf(left);
        if (left.isEmpty()) {
            throw new IllegalArgumentException("a panel needs a metric");
        }
    }

    /** A panel with its metrics on the left axis only. */
    public static Panel of(String title, String xLabel, String xName, boolean log2X, List<Point> points,
                           Metric... left) {
        return new Panel(title, xLabel, xName, log2X, false, points, List.of(left), null);
    }

    /** The points grouped by series, in order of first appearance. */
    public Map<String, List<Point>> lines() {
        Map<String, List<Point>> lines = new LinkedHashMap<>();
        for (Point p : points) {
            lines.computeIfAbsent(p.series(), k -> new ArrayList<>()).add(p);
        }
        return lines;
    }

    /** Every metric the panel shows. */
    public List<Metric> metrics() {
        List<Metric> all = new ArrayList<>(left);
        if (right != null) {
            all.add(right);
        }
        return all;
    }
}
