package io.ricochet.fd;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.ricochet.auth.FrameGuard;
import io.ricochet.control.message.WatchList;
import io.ricochet.control.tls.CertificateExpiry;
import io.ricochet.control.verdict.FailureReporter;
import io.ricochet.metrics.MetricsEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure detector server (see {@code docs/design/failure-detection.md}): one UDP socket bound to
 * {@link FdConfig#bind()}, from which it pings its {@link FdConfig#targets() targets} every interval and on which it
 * answers the HEARTBEATs of whoever watches it. Every verdict change goes to the {@link FailureReporter} given here.
 *
 * <p>A rack detector's targets are the daemons of its rack; a top-level detector's are rack detectors and the next
 * top-level detector of the chain. Both are this class with different targets. The targets given in the
 * configuration are static; the daemons of a {@link WatchList} from the GMS ({@link #watch}) come beside them and go
 * with the next list.
 *
 * <p>All detector state lives on the event loop the socket is registered with; {@link #counters()} may be read
 * and {@link #watch} called from any thread. The {@link EventLoopGroup} belongs to the caller, who shuts it down
 * after {@link #close()}.
 */
public final class FdServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FdServer.class);

    private final FdConfig config;
    private final FailureReporter reporter;
    private final EventLoopGroup group;
    private final LongSupplier clockNs;
    private final FdCounters counters = new FdCounters();
    /** The latest list not yet applied: only the latest matters, so lists that come faster are coalesced. */
    private final AtomicReference<WatchList> pendingList = new AtomicReference<>();
    private final WatchedTargets watched;
    private Channel channel;
    private MetricsEndpoint metrics;
    /** Its TLS certificate's expiry, exported with its metrics; null: none (insecure, or not told). */
    private CertificateExpiry certificateExpiry;
    /** The channel's event loop, once started: where the detector state lives. */
    private volatile EventLoop loop;
    // The detector state below is set in start() before the loop runs anything of it, then used on the loop only.
    private FailureDetector<Target> detector;
    private TransitionReporter transitions;
    private long listsApplied;

    /** A server reading {@link System#nanoTime()}. */
    public FdServer(FdConfig config, FailureReporter reporter, EventLoopGroup group) {
        this(config, reporter, group, System::nanoTime);
    }

    /**
     * @param clockNs the monotonic clock, in nanoseconds, read once per heartbeat round and once per ack
     */
    public FdServer(FdConfig config, FailureReporter reporter, EventLoopGroup group, LongSupplier clockNs) {
        this.config = Objects.requireNonNull(config, "config");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
        this.group = Objects.requireNonNull(group, "group");
        this.clockNs = Objects.requireNonNull(clockNs, "clockNs");
        this.watched = new WatchedTargets(config.wireId(), config.targets());
    }

    /**
     * Exports {@code expiry} (the certificate of this detector's links to the GMS) with the metrics; call before
     * {@link #start}. Null: none.
     */
    public synchronized void exportCertificateExpiry(CertificateExpiry expiry) {
        this.certificateExpiry = expiry;
    }

    /**
     * Binds the socket and sends the first round of heartbeats.
     *
     * @return this server
     * @throws InterruptedException if interrupted while binding
     * @throws IllegalStateException if already started
     * @throws java.net.BindException (thrown unchecked by Netty) if the address cannot be bound
     * @throws UncheckedIOException if the metrics endpoint cannot listen (its message names the option); the
     *     socket is then closed
     */
    public synchronized FdServer start() throws InterruptedException {
        if (channel != null) {
            throw new IllegalStateException("already started");
        }
        Map<Integer, Target> targets = new LinkedHashMap<>();
        config.targets().forEach(t -> targets.put(t.wireId(), t));
        transitions = new TransitionReporter(reporter, counters, config);
        detector = new FailureDetector<>(targets, config.intervalNs(), config.miss(), config.phi(), transitions);
        // One guard: the detector, the ack handler and the sender all run on the channel's one event loop.
        FrameGuard guard = config.auth().newGuard(config.wireId());
        FrameSender sender = new FrameSender(counters, guard);
        DetectorDriver driver = new DetectorDriver(config.wireId(), detector, sender, counters, clockNs);
        Channel bound = new Bootstrap()
                .group(group)
                .channel(NioDatagramChannel.class)
                .handler(new HeartbeatHandler(config.wireId(), counters, sender, driver, guard, config.watchedBy()))
                .bind(config.bind())
                .sync()
                .channel();
        bound.closeFuture().addListener(f -> driver.stop());
        bound.eventLoop().execute(() -> driver.start(bound));
        channel = bound;
        loop = bound.eventLoop();
        // A list given before the start is applied now.
        loop.execute(this::applyPendingList);
        try {
            metrics = MetricsEndpoint.start(config.metrics(), CertificateExpiry.withExpiry(
                    new FdMetrics(counters, this::targetCounts), certificateExpiry),
                    "failure detector " + config.id(), "--metrics-port");
        } catch (IOException e) {
            bound.close().awaitUninterruptibly();
            throw new UncheckedIOException(e.getMessage(), e);
        }
        if (!config.auth().enabled()) {
            LOG.warn("failure detector {} runs INSECURE: heartbeats and acks are not authenticated; anyone who "
                    + "reaches {} can forge acks", config.id(), config.bind());
        }
        LOG.info("failure detector {} (wire id {}) on {}: pinging {} targets every {} ms, failed at phi >= {} "
                        + "(acceptable pause {} ms, min std dev {} ms) after at least {} missed rounds",
                config.id(), config.wireId(), Endpoints.format((InetSocketAddress) bound.localAddress()),
                targets.size(), TimeUnit.NANOSECONDS.toMillis(config.intervalNs()), config.phiThreshold(),
                TimeUnit.NANOSECONDS.toMillis(config.acceptablePauseNs()),
                TimeUnit.NANOSECONDS.toMillis(config.minStdDevNs()), config.miss());
        LOG.info("failure detector {}: authentication {}", config.id(), config.auth().describe());
        return this;
    }

    /**
     * Makes {@code list} the daemons this detector watches for the GMS, beside its static targets
     * ({@link FdConfig#targets()}), which no list removes: a daemon added starts with no history (failed after
     * {@code miss} silent rounds if it never answers; reported recovered on its first answer otherwise, since the
     * detector it comes from may have reported it failed), a daemon removed is forgotten without a verdict (and
     * dropped from what the reporter would send again: {@link FailureReporter#forget}), a daemon kept keeps its
     * history and state, and is pinged at its new address if the list gives another. From any thread, before or
     * after {@link #start}: the list is applied on the detector's event loop; of lists given faster than it applies
     * them, only the latest is.
     */
    public void watch(WatchList list) {
        pendingList.set(Objects.requireNonNull(list, "list"));
        EventLoop l = loop;
        if (l != null) {
            try {
                l.execute(this::applyPendingList);
            } catch (RejectedExecutionException e) {
                LOG.debug("failure detector {}: event loop shut down; watch list dropped", config.id());
            }
        }
    }

    /** On the event loop: the latest list given to {@link #watch}, if any, becomes the GMS's part of the targets. */
    private void applyPendingList() {
        WatchList list = pendingList.getAndSet(null);
        if (list == null) {
            return;
        }
        WatchedTargets.Merge merge = watched.merge(list);
        // A daemon added may have been reported failed by the detector it comes from: its first answer says otherwise.
        FailureDetector.Change change = detector.setMembers(merge.targets(), true);
        transitions.forget(change.removed());
        listsApplied++;
        counters.increment(FdCounter.WATCH_LISTS);
        counters.add(FdCounter.TARGETS_ADDED, change.added().size());
        counters.add(FdCounter.TARGETS_REMOVED, change.removed().size());
        merge.problems().forEach(problem -> LOG.warn("failure detector {}: {}", config.id(), problem));
        if (listsApplied == 1 || !change.isEmpty()) {
            LOG.info("failure detector {}: {}; added {}; removed {}{}", config.id(), merge.describe(),
                    ids(change.added()), ids(change.removed()),
                    change.readdressed().isEmpty() ? "" : "; new address " + ids(change.readdressed()));
        } else {
            LOG.debug("failure detector {}: {}; unchanged", config.id(), merge.describe());
        }
    }

    /** Node ids for the log: {@code none}, {@code 3, 4}, or the first 16 and how many more. */
    private static String ids(List<Integer> ids) {
        if (ids.isEmpty()) {
            return "none";
        }
        int shown = Math.min(ids.size(), 16);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < shown; i++) {
            text.append(i == 0 ? "" : ", ").append(ids.get(i));
        }
        return ids.size() > shown ? text + " and " + (ids.size() - shown) + " more" : text.toString();
    }

    /** The bound address (with the actual port when {@code bind} asked for port 0). */
    public synchronized InetSocketAddress localAddress() {
        requireStarted();
        return (InetSocketAddress) channel.localAddress();
    }

    /** Completes when the socket is closed, by {@link #close()} or otherwise. */
    public synchronized ChannelFuture closeFuture() {
        requireStarted();
        return channel.closeFuture();
    }

    /** The targets up and failed now, read on the event loop (for a scrape). */
    private CompletableFuture<FdMetrics.Targets> targetCounts() {
        CompletableFuture<FdMetrics.Targets> done = new CompletableFuture<>();
        try {
            loop.execute(() -> done.complete(new FdMetrics.Targets(
                    detector.memberCount() - detector.failedCount(), detector.failedCount())));
        } catch (RejectedExecutionException e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    /** The port of the Prometheus endpoint, or 0 if it is off. */
    public synchronized int metricsPort() {
        return metrics == null ? 0 : metrics.port();
    }

    public FdCounters counters() {
        return counters;
    }

    public FdConfig config() {
        return config;
    }

    /** Stops pinging and closes the socket; waits for the close. Idempotent; the event loop group stays up. */
    @Override
    public synchronized void close() {
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
        if (channel != null) {
            channel.close().awaitUninterruptibly();
        }
    }

    private void requireStarted() {
        if (channel == null) {
            throw new IllegalStateException("not started");
        }
    }
}
