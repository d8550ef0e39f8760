package io.ricochet.bench.load;

import io.ricochet.api.MessageId;
import io.ricochet.api.NodeStats;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bench sink}: an application on the receiving node. It connects to its daemon's local API, joins the
 * groups and counts deliveries and loss notices ({@link DeliveryCounter}). Once a second it records how many of each
 * arrived in that second and rewrites its progress file; every sampling interval it takes a {@link SinkSample}
 * (with the daemon's counters over a second connection, the daemon's CPU time and the kernel's UDP counters, if
 * asked). It runs until {@code seconds} pass or {@link #stop()} is called. Then, given the load generators'
 * reports, it waits up to the grace time for every packet they sent to be delivered or given up and checks the
 * delivery promise ({@link PromiseTally}).
 */
public final class Sink {
    private static final Logger LOG = LoggerFactory.getLogger(Sink.class);
    /** Samples kept: ten hours at one a second. */
    static final int MAX_SAMPLES = 36_000;
    private static final long RESOLVED_POLL_MILLIS = 100;

    private final SinkConfig config;
    private final DeliveryCounter counter = new DeliveryCounter();
    private final List<Long> perSecond = new ArrayList<>();
    private final List<Long> lostPerSecond = new ArrayList<>();
    private final List<SinkSample> samples = new ArrayList<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private long lastDelivered;
    private long lastLost;
    private boolean samplesTruncated;

    public Sink(SinkConfig config) {
        this.config = config;
    }

    /** Ends the run early (e.g. from a SIGTERM hook). */
    public void stop() {
        stop.countDown();
    }

    /** Joins, counts until told to stop, checks and reports. */
    public SinkReport run() throws InterruptedException {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sink-ticker");
            t.setDaemon(true);
            return t;
        });
        ClientOptions options = ClientOptions.defaults().withClientName("bench-sink");
        try (RicochetClient client = config.api().connect(options);
             RicochetClient stats = config.daemonStats()
                     ? config.api().connect(ClientOptions.defaults().withClientName("bench-sink-stats")) : null) {
            // bench load sends one message per datagram, so a message's id names its datagram's seqno (index 0),
            // and the counter checks the promise per datagram seqno, as the generators report what they sent.
            client.subscribe(d -> {
                long seqno = MessageId.datagram(d.seqno());
                if (d.kind() == Delivery.Kind.DROPPED) {
                    // A run of message ids: every datagram in it whose one message (index 0) lies in the run.
                    long first = MessageId.index(d.seqno()) == 0 ? seqno : seqno + 1;
                    counter.dropped(d.origin(), d.group(), first, MessageId.datagram(d.lastId()));
                } else if (d.isLost()) {
                    counter.lost(d.origin(), d.group(), seqno);
                } else if (MessageId.index(d.seqno()) == 0) {
                    counter.delivered(d.origin(), d.group(), seqno);
                } else {
                    counter.notFromALoadGenerator();
                }
            });
            for (int group : config.groups().ids()) {
                client.join(group);
            }
            long startNs = System.nanoTime();
            long cpuStart = CpuClock.processNanos();
            System.err.printf("sink: joined %d groups at %s%n", config.groups().size(), config.api());
            ticker.scheduleAtFixedRate(() -> tick(client, startNs), 0, 1, TimeUnit.SECONDS);
            ticker.scheduleAtFixedRate(() -> sample(client, stats), 0, config.sampleMillis(), TimeUnit.MILLISECONDS);
            if (config.seconds() > 0) {
                stop.await((long) (config.seconds() * 1e9), TimeUnit.NANOSECONDS);
            } else {
                stop.await();
            }
            double elapsed = (System.nanoTime() - startNs) / 1e9;
            Check check = check();
            double cpu = CpuClock.secondsBetween(cpuStart, CpuClock.processNanos());
            ticker.shutdownNow();
            ticker.awaitTermination(1, TimeUnit.SECONDS);
            return report(client, elapsed, cpu, check);
        }
    }

    /** The promise check's outcome: the tally (null if there was nothing to check) or why it could not run. */
    private record Check(PromiseTally tally, double graceWaited, String error) {
    }

    /**
     * Reads what the generators sent, then waits (up to the grace time) until every packet is delivered or given
     * up, and counts the promise. Deliveries and samples go on meanwhile.
     */
    private Check check() throws InterruptedException {
        if (config.expect().isEmpty()) {
            return new Check(null, 0, null);
        }
        long startNs = System.nanoTime();
        long graceNs = (long) (config.graceSeconds() * 1e9);
        Map<Long, Long> sent;
        try {
            sent = SentStreams.read(config.expect());
        } catch (IOException e) {
            System.err.println("sink: cannot check the delivery promise: " + e.getMessage());
            return new Check(null, 0, e.getMessage());
        }
        while (!counter.allResolved(sent) && System.nanoTime() - startNs < graceNs) {
            Thread.sleep(RESOLVED_POLL_MILLIS);
        }
        return new Check(counter.check(sent), (System.nanoTime() - startNs) / 1e9, null);
    }

    private synchronized void tick(RicochetClient client, long startNs) {
        DeliveryCounter.Totals t = counter.totals();
        if ((System.nanoTime() - startNs) >= TimeUnit.MILLISECONDS.toNanos(500)) {
            perSecond.add(t.delivered() - lastDelivered);
            lostPerSecond.add(t.lost() - lastLost);
        }
        lastDelivered = t.delivered();
        lastLost = t.lost();
        if (config.progressFile() == null) {
            return;
        }
        try {
            JsonFiles.write(config.progressFile(), new SinkProgress(System.currentTimeMillis(),
                    (System.nanoTime() - startNs) / 1e9, t.delivered(), t.lost(), t.duplicates(),
                    client.overflowedDeliveries()));
        } catch (IOException e) {
            LOG.warn("cannot write {}: {}", config.progressFile(), e.toString());
        }
    }

    /** Takes one {@link SinkSample}: the daemon's counters first, then the cheap readings at once. */
    private void sample(RicochetClient client, RicochetClient stats) {
        Map<String, Long> daemon = Map.of();
        if (stats != null) {
            try {
                NodeStats s = stats.stats();
                Map<String, Long> read = new LinkedHashMap<>(s.counters() == null ? Map.of() : s.counters());
                if (s.api() != null) {
                    s.api().forEach((k, v) -> read.put("api." + k, v));
                }
                daemon = read;
            } catch (RuntimeException e) {
                LOG.warn("cannot read the daemon's stats: {}", e.toString());
            }
        }
        long epochMillis = System.currentTimeMillis();
        DeliveryCounter.Totals t = counter.totals();
        SinkSample sample = new SinkSample(epochMillis, t.delivered(), t.lost(), client.overflowedDeliveries(),
                daemon, HostReadings.cpuTicks(config.daemonPid()), HostReadings.udpCounters());
        synchronized (this) {
            if (samples.size() < MAX_SAMPLES) {
                samples.add(sample);
            } else {
                samplesTruncated = true;
            }
        }
    }

    private synchronized SinkReport report(RicochetClient client, double elapsed, double cpu, Check check) {
        DeliveryCounter.Totals t = counter.totals();
        long peak = perSecond.stream().mapToLong(Long::longValue).max().orElse(0);
        return new SinkReport(config.api().toString(), client.nodeId(), config.groups().toString(), elapsed,
                t.delivered(), t.lost(), t.duplicates(), t.both(), t.unchecked(), t.streams(),
                client.overflowedDeliveries(), t.dropped(), client.droppedDeliveries(),
                elapsed > 0 ? t.delivered() / elapsed : 0,
                peak, List.copyOf(perSecond), List.copyOf(lostPerSecond), cpu, check.tally(), check.graceWaited(),
                check.error(), config.sampleMillis(), List.copyOf(samples), samplesTruncated);
    }
}
