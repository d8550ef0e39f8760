package io.ricochet.metrics;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The samples of one scrape, built from values a server has already read on its own thread. Every server's counter
 * set goes through {@link #counters}, so a counter {@code NAME} of prefix {@code P} is always {@code
 * P_name_total}: the dashboard, the alert rules and {@code ricochet top} rely on that scheme.
 */
public final class Readings {
    private final MetricSnapshots.Builder snapshots = MetricSnapshots.builder();

    /**
     * A histogram's buckets, as the server counted them.
     *
     * @param upperBounds each bucket's upper bound, ascending, the last {@code +Inf}
     * @param counts      the observations in each bucket (not cumulative), as many as the bounds
     * @param sum         the sum of every observation
     */
    public record Buckets(double[] upperBounds, long[] counts, double sum) {
    }

    /**
     * Each counter of a set, {@code NAME -> value}, as {@code prefix_name_total}, lower-case; those named in
     * {@code gauges} (values that go down, or high-water marks) as gauges {@code prefix_name}.
     *
     * @param help the help text of a counter, by its name
     */
    public Readings counters(String prefix, Map<String, Long> values, Function<String, String> help,
                             Set<String> gauges) {
        values.forEach((name, value) -> {
            String metric = prefix + "_" + name.toLowerCase(Locale.ROOT);
            if (gauges.contains(name)) {
                gauge(metric, help.apply(name), value);
            } else {
                counter(metric, help.apply(name), value);
            }
        });
        return this;
    }

    /** A counter {@code name_total}; {@code name} is given without the suffix. */
    public Readings counter(String name, String help, long value) {
        snapshots.metricSnapshot(CounterSnapshot.builder().name(name).help(help)
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build());
        return this;
    }

    /** A gauge without labels. */
    public Readings gauge(String name, String help, double value) {
        return gauge(name, help, Map.of(Labels.EMPTY, value));
    }

    /** A gauge of one sample per label set (none is fine: the family is then listed without samples). */
    public Readings gauge(String name, String help, Map<Labels, ? extends Number> samples) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
        samples.forEach((labels, value) -> gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(labels).value(value.doubleValue()).build()));
        snapshots.metricSnapshot(gauge.build());
        return this;
    }

    /** A histogram of one set of buckets per value of {@code label}. */
    public Readings histogram(String name, String help, String label, Map<String, Buckets> byLabel) {
        HistogramSnapshot.Builder histogram = HistogramSnapshot.builder().name(name).help(help);
        byLabel.forEach((value, buckets) -> histogram.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(Labels.of(label, value)).sum(buckets.sum())
                .classicHistogramBuckets(ClassicHistogramBuckets.of(buckets.upperBounds(), buckets.counts()))
                .build()));
        snapshots.metricSnapshot(histogram.build());
        return this;
    }

    /** One label. */
    public static Labels label(String name, String value) {
        return Labels.of(name, value);
    }

    /** The samples, for a {@link io.prometheus.metrics.model.registry.MultiCollector} to return. */
    public MetricSnapshots build() {
        return snapshots.build();
    }
}
