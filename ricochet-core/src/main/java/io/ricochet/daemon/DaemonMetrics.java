package io.ricochet.daemon;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.ricochet.api.NodeStats;
import io.ricochet.api.server.ApiCounter;
import io.ricochet.engine.Counter;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.latency.LatencyStats;
import io.ricochet.latency.RecoveryLatencies;
import io.ricochet.lec.tuning.GroupTuning;
import io.ricochet.lecnak.RicochetEngine;
import io.ricochet.metrics.Readings;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The daemon's Prometheus samples. A scrape asks the engine's thread for a {@link Reading} (the same
 * {@link NodeStats} the API's STATS request gets, built on that thread) and waits for it a bounded time; nothing of
 * the engine is read from the HTTP thread.
 *
 * <p>Recovery latency is exported from the daemon's own histograms (HdrHistogram, microseconds, kept by
 * {@link RecoveryLatencies} as recoveries happen), turned into Prometheus buckets at scrape time: the engine thread
 * pays nothing more per recovery, and the counts are the same ones {@code ricochet stats} shows. It is the time
 * from a loss's discovery to its recovery, labelled by how it came back.
 */
final class DaemonMetrics implements MultiCollector {
    /** How long a scrape waits for the engine's thread; longer, and the scrape fails (the target shows down). */
    static final long SCRAPE_TIMEOUT_MS = 2_000;
    /** Bucket bounds of the recovery latency histogram, seconds: 0.5 ms to 10 s. */
    static final double[] LATENCY_BOUNDS_SECONDS = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
        1, 2, 5, 10, Double.POSITIVE_INFINITY};
    /** The label values of the histogram, by how a loss came back. */
    static final Map<Delivery, String> HOW = Map.of(Delivery.LEC, "lec", Delivery.NAK, "nak", Delivery.LATE, "late",
            Delivery.FOUNTAIN, "fountain");
    /** Counters that are gauges: values that go down, and high-water marks. */
    private static final Set<String> GAUGES = Set.of(DaemonCounter.SEND_QUEUE_PEAK.name(),
            DaemonCounter.RX_BATCH_PEAK.name(), DaemonCounter.BUNDLE_PEAK.name(), ApiCounter.CONNECTIONS_OPEN.name(),
            DaemonCounter.FIFO_HELD_PEAK_US.name(),
            ApiCounter.PEAK_OUTBOUND_BYTES.name(), ApiCounter.REQUESTS_IN_FLIGHT.name(),
            ApiCounter.PEAK_REQUESTS_IN_FLIGHT.name(), ApiCounter.TCP_OPEN.name(), ApiCounter.LARGE_FRAME_BYTES.name());

    /**
     * What one scrape shows, read on the engine's thread.
     *
     * @param stats     the STATS reply's content, API counters included
     * @param sendQueue application sends waiting in the send queue now
     * @param latency   recovery latency buckets by label value
     * @param rateOfFire with rate-of-fire tuning on, each group's (r, c) now; empty when off
     */
    record Reading(NodeStats stats, int sendQueue, Map<String, Readings.Buckets> latency,
                   List<GroupTuning> rateOfFire) {
        Reading(NodeStats stats, int sendQueue, Map<String, Readings.Buckets> latency) {
            this(stats, sendQueue, latency, List.of());
        }
    }

    /** Each group's tuned rate-of-fire, on the engine's thread; empty unless a Ricochet engine tunes it. */
    static List<GroupTuning> rateOfFire(ProtocolEngine engine) {
        return engine instanceof RicochetEngine ricochet ? ricochet.tuning() : List.of();
    }

    private final Supplier<CompletableFuture<Reading>> read;
    private final Map<String, String> help = new HashMap<>();

    /**
     * @param read     asks the engine's thread for a reading
     * @param engineCounters the engine's counters, for their descriptions
     */
    DaemonMetrics(Supplier<CompletableFuture<Reading>> read, List<Counter> engineCounters) {
        this.read = read;
        engineCounters.forEach(c -> help.put(c.name(), c.description()));
        DaemonCounter.ALL.forEach(c -> help.put(c.name(), c.description()));
        for (ApiCounter c : ApiCounter.values()) {
            help.put(c.name(), c.description());
        }
    }

    /** The buckets of each recovery latency, from discovery to recovery; on the engine's thread. */
    static Map<String, Readings.Buckets> latencies(RecoveryLatencies latencies) {
        Map<String, Readings.Buckets> buckets = new LinkedHashMap<>();
        HOW.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                buckets.put(e.getValue(), buckets(latencies.sinceDiscovery(e.getKey()))));
        return buckets;
    }

    /**
     * A distribution as buckets. HdrHistogram counts whole microseconds, so a bucket's bound is exclusive to the
     * microsecond, where Prometheus's is inclusive: a recovery of exactly 1 ms falls in the next bucket up.
     */
    static Readings.Buckets buckets(LatencyStats stats) {
        long[] counts = new long[LATENCY_BOUNDS_SECONDS.length];
        double fromMs = 0;
        long counted = 0;
        for (int i = 0; i < counts.length - 1; i++) {
            double toMs = LATENCY_BOUNDS_SECONDS[i] * 1000;
            counts[i] = stats.countBetweenMs(fromMs, toMs);
            counted += counts[i];
            fromMs = toMs;
        }
        counts[counts.length - 1] = stats.count() - counted;
        LatencyStats.Summary summary = stats.summary();
        return new Readings.Buckets(LATENCY_BOUNDS_SECONDS, counts, summary.mean() * summary.count() / 1000.0);
    }

    @Override
    public MetricSnapshots collect() {
        Reading r;
        try {
            r = read.get().get(SCRAPE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the daemon's stats", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the daemon's stats: " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the engine's thread did not give its stats within "
                    + SCRAPE_TIMEOUT_MS + " ms", e);
        }
        NodeStats s = r.stats();
        Readings out = new Readings()
                .counters("ricochet_daemon", s.counters(), this::help, GAUGES)
                .counters("ricochet_api", s.api() == null ? Map.of() : s.api(), this::help, GAUGES);
        Map<Labels, Long> buffers = new LinkedHashMap<>();
        s.buffers().forEach((name, value) -> buffers.put(Readings.label("buffer", name), value));
        buffers.put(Readings.label("buffer", "sendQueue"), (long) r.sendQueue());
        out.gauge("ricochet_daemon_buffer", "what each bounded buffer holds now, in the unit its name ends with "
                + "(packets, bytes, entries)", buffers);
        out.gauge("ricochet_daemon_groups", "groups this node is a member of", s.groups().size());
        gms(out, s.gms() == null ? Map.of() : s.gms());
        if (!r.rateOfFire().isEmpty()) {
            Map<Labels, Double> cs = new LinkedHashMap<>();
            Map<Labels, Integer> rs = new LinkedHashMap<>();
            for (GroupTuning g : r.rateOfFire()) {
                Labels group = Readings.label("group", Integer.toString(g.group()));
                cs.put(group, g.c());
                rs.put(group, g.r());
            }
            out.gauge("ricochet_daemon_rate_of_fire_c", "with rate-of-fire-tuning on: the repairs this node sends per "
                    + "r data packets it receives in the group (LEC's c), as tuned now", cs);
            out.gauge("ricochet_daemon_rate_of_fire_r", "with rate-of-fire-tuning on: the data packets XORed into one "
                    + "repair (LEC's r), as tuned now; one per node, shown for each group", rs);
        }
        out.histogram("ricochet_daemon_recovery_latency_seconds", "time from a loss's discovery to its recovery, by "
                + "how it came back: lec (XOR of repairs), nak (retransmission), late (the data itself, reordered)",
                "how", r.latency());
        return out.build();
    }

    private static void gms(Readings out, Map<Integer, NodeStats.GmsLink> links) {
        Map<Labels, Integer> up = new LinkedHashMap<>();
        Map<Labels, Long> term = new LinkedHashMap<>();
        Map<Labels, Long> commit = new LinkedHashMap<>();
        Map<Labels, Integer> leader = new LinkedHashMap<>();
        links.forEach((partition, link) -> {
            Labels p = Readings.label("partition", Integer.toString(partition));
            up.put(p, link.up() ? 1 : 0);
            term.put(p, link.term());
            commit.put(p, link.commitIndex());
            if (link.leader() != null) {
                leader.put(Labels.of("partition", Integer.toString(partition), "leader", link.leader()), 1);
            }
        });
        out.gauge("ricochet_daemon_gms_link_up", "1 if this daemon is served by the partition's leader now", up);
        out.gauge("ricochet_daemon_gms_term", "the partition's Raft term, as its leader last said", term);
        out.gauge("ricochet_daemon_gms_commit_index", "the partition's Raft commit index, as its leader last said",
                commit);
        out.gauge("ricochet_daemon_gms_leader", "1 for the replica that served the partition last (label leader)",
                leader);
    }

    private String help(String name) {
        return help.getOrDefault(name, name.toLowerCase(Locale.ROOT).replace('_', ' '));
    }
}
