package io.ricochet.fd;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.ricochet.metrics.Readings;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A failure detector's Prometheus samples: its {@link FdCounter}s (atomic, read from any thread; its verdicts are
 * {@code ricochet_fd_failures_reported_total} and {@code ricochet_fd_recoveries_reported_total}) and how many of its
 * targets are up and failed now, read on the detector's event loop with a bounded wait.
 */
final class FdMetrics implements MultiCollector {
    /** How long a scrape waits for the event loop. */
    static final long SCRAPE_TIMEOUT_MS = 2_000;

    /** The targets by state, on the event loop. */
    record Targets(int up, int failed) {
    }

    private final FdCounters counters;
    private final Supplier<CompletableFuture<Targets>> targets;

    FdMetrics(FdCounters counters, Supplier<CompletableFuture<Targets>> targets) {
        this.counters = counters;
        this.targets = targets;
    }

    @Override
    public MetricSnapshots collect() {
        Targets t;
        try {
            t = targets.get().get(SCRAPE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the targets", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the detector's event loop did not give its targets within "
                    + SCRAPE_TIMEOUT_MS + " ms", e);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        counters.snapshot().forEach((counter, value) -> values.put(counter.name(), value));
        Map<Labels, Integer> byState = new LinkedHashMap<>();
        byState.put(Readings.label("state", "up"), t.up());
        byState.put(Readings.label("state", "failed"), t.failed());
        return new Readings()
                .counters("ricochet_fd", values, name -> "failure detector's count of "
                        + name.toLowerCase(Locale.ROOT).replace('_', ' ') + " (see FdCounter)", Set.of())
                .gauge("ricochet_fd_targets", "targets watched now, by the detector's verdict on them", byState)
                .build();
    }
}
