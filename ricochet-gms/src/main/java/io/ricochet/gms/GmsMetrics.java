package io.ricochet.gms;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.ricochet.metrics.Readings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * A GMS replica's Prometheus samples: its {@link GmsCounter}s, and per hosted partition whether this replica leads
 * it, its Raft term, commit and applied index, its groups and its sessions. The partitions are read on the
 * replica's event loop (where the sessions live), the scrape waiting a bounded time; the counters are atomic.
 */
final class GmsMetrics implements MultiCollector {
    /** How long a scrape waits for the event loop. */
    static final long SCRAPE_TIMEOUT_MS = 2_000;

    /** One hosted partition as this replica sees it. */
    record Partition(int index, boolean leader, long term, long commitIndex, long appliedIndex, int groups,
                     int sessions) {
    }

    private final ToLongFunction<GmsCounter> counters;
    private final Supplier<CompletableFuture<List<Partition>>> partitions;

    GmsMetrics(ToLongFunction<GmsCounter> counters, Supplier<CompletableFuture<List<Partition>>> partitions) {
        this.counters = counters;
        this.partitions = partitions;
    }

    @Override
    public MetricSnapshots collect() {
        List<Partition> read;
        try {
            read = partitions.get().get(SCRAPE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the partitions", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the GMS event loop did not give its partitions within "
                    + SCRAPE_TIMEOUT_MS + " ms", e);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (GmsCounter c : GmsCounter.values()) {
            values.put(c.name(), counters.applyAsLong(c));
        }
        Readings out = new Readings().counters("ricochet_gms", values,
                name -> "GMS replica's count of " + GmsCounter.valueOf(name).label() + " (see GmsCounter)", Set.of());
        partitionGauge(out, read, "ricochet_gms_partition_leader",
                "1 if this replica leads the partition and can serve it", p -> p.leader() ? 1 : 0);
        partitionGauge(out, read, "ricochet_gms_partition_term", "the partition's Raft term at this replica",
                Partition::term);
        partitionGauge(out, read, "ricochet_gms_partition_commit_index",
                "the partition's Raft commit index at this replica (-1 unknown)", Partition::commitIndex);
        partitionGauge(out, read, "ricochet_gms_partition_applied_index",
                "the Raft index this replica's membership state has applied", Partition::appliedIndex);
        partitionGauge(out, read, "ricochet_gms_groups", "groups of the partition, as this replica has applied",
                Partition::groups);
        partitionGauge(out, read, "ricochet_gms_sessions", "daemon and detector sessions open with this replica",
                Partition::sessions);
        return out.build();
    }

    private static void partitionGauge(Readings out, List<Partition> partitions, String name, String help,
                                       Function<Partition, Number> value) {
        Map<Labels, Number> samples = new LinkedHashMap<>();
        partitions.forEach(p -> samples.put(Readings.label("partition", Integer.toString(p.index())),
                value.apply(p)));
        out.gauge(name, help, samples);
    }
}
