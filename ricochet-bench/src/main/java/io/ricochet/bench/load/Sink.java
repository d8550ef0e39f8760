package io.ricochet.bench.load;

import io.ricochet.client.ApiAddress;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bench sink}: an application on the receiving node. It connects to its daemon's local API, joins the
 * groups, counts deliveries (checking that no id comes twice) and, once a second, records how many arrived in that
 * second and rewrites its progress file. It runs until {@code seconds} pass or {@link #stop()} is called.
 */
public final class Sink {
    private static final Logger LOG = LoggerFactory.getLogger(Sink.class);

    private final ApiAddress api;
    private final GroupList groups;
    private final double seconds;
    private final Path progressFile;
    private final DeliveryCounter counter = new DeliveryCounter();
    private final List<Long> perSecond = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch stop = new CountDownLatch(1);
    private long lastDelivered;

    /**
     * @param api          the daemon's API
     * @param groups       groups to join
     * @param seconds      how long to run, 0 = until {@link #stop()}
     * @param progressFile where running totals go once a second; null for none
     */
    public Sink(ApiAddress api, GroupList groups, double seconds, Path progressFile) {
        this.api = api;
        this.groups = groups;
        this.seconds = seconds;
        this.progressFile = progressFile;
    }

    /** Ends the run early (e.g. from a SIGTERM hook). */
    public void stop() {
        stop.countDown();
    }

    /** Joins, counts until told to stop, and reports. */
    public SinkReport run() throws InterruptedException {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sink-ticker");
            t.setDaemon(true);
            return t;
        });
        try (RicochetClient client = api.connect(ClientOptions.defaults().withClientName("bench-sink"))) {
            client.subscribe(d -> {
                if (d.isLost()) {
                    counter.lost(d.origin(), d.group(), d.seqno());
                } else {
                    counter.delivered(d.origin(), d.group(), d.seqno());
                }
            });
            for (int group : groups.ids()) {
                client.join(group);
            }
            long startNs = System.nanoTime();
            long cpuStart = CpuClock.processNanos();
            System.err.printf("sink: joined %d groups at %s%n", groups.size(), api);
            ticker.scheduleAtFixedRate(() -> tick(client, startNs), 0, 1, TimeUnit.SECONDS);
            if (seconds > 0) {
                stop.await((long) (seconds * 1e9), TimeUnit.NANOSECONDS);
            } else {
                stop.await();
            }
            double elapsed = (System.nanoTime() - startNs) / 1e9;
            double cpu = CpuClock.secondsBetween(cpuStart, CpuClock.processNanos());
            ticker.shutdownNow();
            return report(client, elapsed, cpu);
        }
    }

    private void tick(RicochetClient client, long startNs) {
        DeliveryCounter.Totals t = counter.totals();
        if ((System.nanoTime() - startNs) >= TimeUnit.MILLISECONDS.toNanos(500)) {
            perSecond.add(t.delivered() - lastDelivered);
        }
        lastDelivered = t.delivered();
        if (progressFile == null) {
            return;
        }
        try {
            JsonFiles.write(progressFile, new SinkProgress(System.currentTimeMillis(),
                    (System.nanoTime() - startNs) / 1e9, t.delivered(), t.lost(), t.duplicates(),
                    client.overflowedDeliveries()));
        } catch (IOException e) {
            LOG.warn("cannot write {}: {}", progressFile, e.toString());
        }
    }

    private SinkReport report(RicochetClient client, double elapsed, double cpu) {
        DeliveryCounter.Totals t = counter.totals();
        List<Long> seconds;
        synchronized (perSecond) {
            seconds = List.copyOf(perSecond);
        }
        long peak = seconds.stream().mapToLong(Long::longValue).max().orElse(0);
        return new SinkReport(api.toString(), client.nodeId(), groups.toString(), elapsed, t.delivered(),
                t.lost(), t.duplicates(), t.unchecked(), t.streams(), client.overflowedDeliveries(),
                client.droppedDeliveries(), elapsed > 0 ? t.delivered() / elapsed : 0, peak, seconds, cpu);
    }
}
