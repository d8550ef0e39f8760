package io.ricochet.daemon;

import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.ricochet.api.ApiException;
import io.ricochet.api.DeliveryListener;
import io.ricochet.api.LocalNode;
import io.ricochet.api.NodeStats;
import io.ricochet.api.server.ApiServer;
import io.ricochet.auth.FrameGuard;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.message.Register;
import io.ricochet.control.tls.CertificateExpiry;
import io.ricochet.engine.Counters;
import io.ricochet.engine.PacketId;
import io.ricochet.loss.LossInjector;
import io.ricochet.metrics.MetricsEndpoint;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Ricochet daemon: the protocol engine on its own event-loop thread, its sockets, the connection to the GMS
 * partitions and the local TCP API. Other threads (API connections, the GMS client) reach the engine only by
 * handing tasks to that thread, so the packet path takes no locks.
 */
public final class Daemon implements LocalNode, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Daemon.class);
    /** Below the client's 10 s request timeout, so an application hears why a join failed. */
    private static final long JOIN_TIMEOUT_SECONDS = 5;
    /**
     * An application's JOIN waits at most this long for the group's senders' join points: a sender that does not
     * answer (crashed, not yet declared failed) must not hold the join.
     */
    static final long JOIN_POINT_WAIT_MS = 500;
    /** How often the engine's loop marks its progress for the heartbeat thread. */
    private static final long PROGRESS_MARK_MS = 200;

    private final DaemonConfig config;
    private final DaemonTransport transport;
    private final EngineDriver driver;
    private final Landing landing;
    private final EventLoop loop;
    private final NioEventLoopGroup controlGroup = new NioEventLoopGroup(1);
    private final GmsClient gms;
    private final GmsListener gmsListener;
    private final long incarnation;
    private final ApiServer api;
    private final SendQueue sends;
    private final HeartbeatResponder heartbeats;
    private final Map<Integer, List<CompletableFuture<Void>>> pendingJoins = new HashMap<>();
    /**
     * Groups this daemon asked the GMS to leave while a member, until a view or event shows it out: a join in that
     * time must wait for the GMS to take it back in, not trust the membership that is about to end.
     */
    private final Set<Integer> leaving = new HashSet<>();
    /** The Prometheus endpoint, or null when off; set once by {@link #start}. */
    private volatile MetricsEndpoint metrics;
    private volatile boolean closed;
    /** Replayed and stale heartbeats already added to the counters (engine thread only). */
    private long heartbeatReplaysFolded;
    private long heartbeatStaleFolded;

    private Daemon(DaemonConfig config) throws Exception {
        this.config = config;
        SplittableRandom root = new SplittableRandom(config.seed());
        Counters counters = new Counters(DaemonCounter.ALL);
        requireHeapFor(config);
        SplittableRandom rxRandom = root.split();
        this.transport = new DaemonTransport(config);
        this.loop = transport.loop().next();
        LossInjector injector = new LossInjector(config.injectLoss().newModel(root.nextLong()), config.lossScope(),
                config.nodeId());
        this.driver = new EngineDriver(config.nodeId(), loop, System::nanoTime, injector, counters);
        this.landing = landing(config, driver, loop, rxRandom);
        driver.attach(config.protocol().factory(config.engine(), config.engine().maxPayload(), config.tuning(),
                        config.auth()::newOriginSeals)
                .create(config.nodeId(), root.split(), driver), transport, config.bundleBytes(),
                config.bundleLingerUs() * 1_000L, afterBatch(loop), config.messages(), config.engine().maxPayload());
        // One incarnation per process start: a restarted daemon's streams start again at 0 (MembershipEvent).
        this.incarnation = System.currentTimeMillis();
        this.sends = new SendQueue(new SendQueue.Engine() {
            @Override
            public boolean joins(int group, int size) {
                return driver.joinsOpenDatagram(group, size);
            }

            @Override
            public long readyAtNs(int group, long nowNs) {
                return driver.newDatagramReadyAtNs(group, nowNs);
            }

            @Override
            public long send(int group, byte[] payload, DeliveryListener from) {
                return driver.sendFromApplication(group, payload, from);
            }

            @Override
            public int maxSingle() {
                return maxPayload();
            }

            @Override
            public long sendFragment(int group, byte[] message, int index, int count, DeliveryListener from) {
                return driver.sendFragmentFromApplication(group, message, index, count, from);
            }
        }, config.sendQueue(), config.messages().sendQueueBytes(), config.sendRateLimit(), loop, System::nanoTime,
                counters);
        driver.afterReceive(sends::recheck);
        this.heartbeats = new HeartbeatResponder(config.nodeId(), config.heartbeatStallMs() * 1_000_000L,
                System::nanoTime, config.auth(), config.failureDetectors());
        this.gmsListener = new GmsListener(driver, loop, this::membershipSeen);
        this.gms = new GmsClient(new Register(config.nodeId(), config.unicastAddress(), incarnation, config.rack(),
                config.heartbeatAddress().getPort(), ClusterKeyCheck.fingerprints(config.auth())), config.gms(),
                gmsListener, controlGroup, config.tls());
        this.api = new ApiServer(this, config.api(), transport.loop()); // deliveries written on the engine's thread
    }

    /**
     * Runs a task once the loop has run every task it is running now: the end of the batch of sends it is
     * processing, when the {@link Bundler} sends the datagram it filled (without linger).
     */
    private static java.util.concurrent.Executor afterBatch(EventLoop loop) {
        if (loop instanceof SingleThreadEventLoop single) {
            return single::executeAfterEventLoopIteration;
        }
        return loop::execute;
    }

    /** Where received datagrams land: the engine's own loop, or a receive thread's handoff (receive-thread). */
    private static Landing landing(DaemonConfig config, EngineDriver driver, EventLoop loop,
                                   SplittableRandom random) {
        FrameGuard guard = config.auth().newGuard(config.nodeId());
        if (!config.receiveThread()) {
            return new LoopLanding(config.nodeId(), guard, driver, new ReceiveBuffer(config.rxBufferPackets(),
                    config.maxDatagramLength(), random, driver.counters()));
        }
        Counters counts = new Counters(DaemonCounter.ALL);
        return new HandoffLanding(config.nodeId(), guard, driver, loop, counts,
                new ReceiveBuffer(config.rxHalfPackets(), config.maxDatagramLength(), random.split(), counts),
                new ReceiveBuffer(config.rxHalfPackets(), config.maxDatagramLength(), random.split(), counts));
    }

    /**
     * Refuses packet buffers that could outgrow half the JVM's heap when full: a clear error at start rather than an
     * OutOfMemoryError under load (a large mtu and payload multiply every buffer).
     */
    static void requireHeapFor(DaemonConfig config) {
        long need = config.bufferBytes();
        long heap = Runtime.getRuntime().maxMemory();
        if (need > heap / 2) {
            throw new IllegalArgumentException("buffers of up to " + need / (1 << 20) + " MB (rx-buffer "
                    + config.rxBufferPackets() + " per ring, 2 rings of " + config.maxDatagramLength()
                    + "-byte datagrams; data-cache of datagrams; "
                    + "retransmit-buffer and repair-buffer of " + config.engine().maxPayload()
                    + "-byte payloads) do not fit in half the JVM heap (" + heap / (1 << 20) + " MB): lower them or "
                    + "payload, or give the JVM more heap (-Xmx)");
        }
        MessageLimits m = config.messages();
        long messages = (long) m.sendQueueBytes() + m.reassemblyBytes() + m.fifoBytes();
        if (need + messages > heap / 4 * 3) {
            throw new IllegalArgumentException("buffers of up to " + need / (1 << 20) + " MB of packets and "
                    + messages / (1 << 20) + " MB of messages (send-queue-bytes " + m.sendQueueBytes()
                    + ", reassembly-buffer " + m.reassemblyBytes() + ", fifo-buffer " + m.fifoBytes()
                    + ") do not fit in three quarters of the JVM heap (" + heap / (1 << 20) + " MB): lower them "
                    + "(and max-message), or give the JVM more heap (-Xmx)");
        }
    }

    /**
     * Builds and starts a daemon: sockets bound, API and metrics listening, then GMS contacted. Everything that can
     * fail for a port or path already in use fails before the GMS hears of this node: a daemon that cannot start
     * never registers (a JOIN the API takes before then is sent once the GMS session is up).
     */
    public static Daemon start(DaemonConfig config) throws Exception {
        Daemon daemon = new Daemon(config);
        try {
            daemon.transport.start(new DatagramHandler(daemon.landing));
            daemon.heartbeats.start(config.heartbeatAddress());
            daemon.loop.scheduleAtFixedRate(daemon::engineAlive, 0, PROGRESS_MARK_MS, TimeUnit.MILLISECONDS);
            daemon.api.start();
            // The engine's counter set is fixed when it is built (on this thread): its names and descriptions.
            CertificateExpiry expiry = CertificateExpiry.of(config.tls(), "node " + config.nodeId()
                    + "'s TLS certificate (tls-cert)", Clock.systemUTC());
            daemon.metrics = MetricsEndpoint.start(config.metrics(), CertificateExpiry.withExpiry(
                    new DaemonMetrics(daemon::metricsReading, daemon.driver.engine().counters().members()), expiry),
                    "node " + config.nodeId(), "metrics-port");
            daemon.gms.start();
            if (expiry != null) {
                expiry.checkDaily(daemon.loop);
            }
        } catch (Exception e) {
            daemon.close();
            throw e;
        }
        if (config.statsIntervalSeconds() > 0) {
            daemon.loop.scheduleAtFixedRate(daemon::logStats, config.statsIntervalSeconds(),
                    config.statsIntervalSeconds(), TimeUnit.SECONDS);
        }
        FileDescriptorBudget.warning(FileDescriptorBudget.processLimit(), config.maxGroups(),
                daemon.transport.membershipsPerSocket(), config.api().maxConnections())
                .ifPresent(warning -> LOG.warn("node {}: {}", config.nodeId(), warning));
        if (!config.auth().enabled()) {
            LOG.warn("node {} runs INSECURE: datagrams are not authenticated; any host that reaches its sockets can "
                    + "forge data, repairs, NAKs and heartbeats", config.nodeId());
        }
        if (!config.tls().enabled()) {
            LOG.warn("node {} runs INSECURE: its links to the GMS are plaintext; any host that reaches the GMS can "
                    + "register as this node, join, leave, and report it failed", config.nodeId());
        }
        if (config.auth().enabled()) {
            // What the GMS's --key-fingerprint pins (docs/operations.md): reveals nothing about the keys.
            LOG.info("node {}: key fingerprints {}", config.nodeId(), ClusterKeyCheck.fingerprints(config.auth()));
        }
        LOG.info("node {} up ({}) {} ms after the JVM started: unicast {} on {} ({}), API {}, GMS {}, "
                        + "authentication {}; messages up to {} bytes (send queue {} MB, reassembly {} MB, FIFO {} "
                        + "MB at most)", config.nodeId(), config.protocol().cliName(),
                java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime(), config.unicastAddress(),
                config.iface(), daemon.transport.kind(), daemon.apiListeners(),
                GmsAddresses.format(config.gms()), config.authentication(), daemon.maxMessage(),
                config.messages().sendQueueBytes() >> 20, config.messages().reassemblyBytes() >> 20,
                config.messages().fifoBytes() >> 20);
        return daemon;
    }

    /**
     * On the engine's loop, every {@link #PROGRESS_MARK_MS}: tells the heartbeat thread the engine is making
     * progress, and folds that thread's counts into the daemon's counters.
     */
    private void engineAlive() {
        heartbeats.engineAlive();
        long[] counts = heartbeats.counts();
        Counters counters = driver.counters();
        counters.add(DaemonCounter.HEARTBEATS_ANSWERED, counts[0] - counters.get(DaemonCounter.HEARTBEATS_ANSWERED));
        counters.add(DaemonCounter.HEARTBEATS_WITHHELD, counts[1] - counters.get(DaemonCounter.HEARTBEATS_WITHHELD));
        counters.add(DaemonCounter.HEARTBEATS_REFUSED, counts[2] - counters.get(DaemonCounter.HEARTBEATS_REFUSED));
        counters.add(DaemonCounter.HEARTBEATS_MISDIRECTED,
                counts[5] - counters.get(DaemonCounter.HEARTBEATS_MISDIRECTED));
        counters.add(DaemonCounter.HEARTBEATS_UNLISTED, counts[6] - counters.get(DaemonCounter.HEARTBEATS_UNLISTED));
        // The data sockets count replays too, so these two are folded in as increments.
        counters.add(DaemonCounter.REPLAYED_DATAGRAMS, counts[3] - heartbeatReplaysFolded);
        counters.add(DaemonCounter.STALE_DATAGRAMS, counts[4] - heartbeatStaleFolded);
        heartbeatReplaysFolded = counts[3];
        heartbeatStaleFolded = counts[4];
    }

    /** The port the Prometheus endpoint listens on, or 0 if it is off. */
    public int metricsPort() {
        MetricsEndpoint m = metrics;
        return m == null ? 0 : m.port();
    }

    /** The port the local API listens on (useful with port 0); throws IllegalStateException if TCP is off. */
    public int apiPort() {
        return api.boundPort();
    }

    /** Where the local API listens: its TCP address and Unix socket, as {@link ApiServer#listeners()} says. */
    public String apiListeners() {
        return api.listeners();
    }

    /**
     * Tells {@code observer}, on the engine's thread and before any later delivery, the id of every data packet this
     * daemon's loss injector ({@code inject-loss}) drops from now on: for experiments in the daemon's JVM that
     * measure the recovery of exactly the packets whose first copy was lost (ricochet-bench's comparison harness).
     */
    public void observeInjectedDrops(Consumer<PacketId> observer) {
        loop.execute(() -> driver.observeInjectedDrops(observer));
    }

    public DaemonConfig config() {
        return config;
    }

    @Override
    public int nodeId() {
        return config.nodeId();
    }

    /** The largest message one datagram carries: the engine's payload less the kind byte of {@link BundleFormat}. */
    @Override
    public int maxPayload() {
        return config.engine().maxPayload() - BundleFormat.KIND;
    }

    /** The largest application message ({@code max-message}): larger than {@link #maxPayload}, it is fragmented. */
    @Override
    public int maxMessage() {
        return Math.max(maxPayload(), config.messages().maxMessage());
    }

    @Override
    public CompletableFuture<Void> join(int group, DeliveryListener listener) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> {
            boolean first = !driver.subscribedGroups().contains(group);
            if (first && driver.subscribedGroups().size() >= config.maxGroups()) {
                refuseOverLimit(group, done);
                return;
            }
            driver.addListener(group, listener);
            if (driver.isMember(group) && !leaving.contains(group)) {
                transport.whenListening(group, () -> done.complete(null));
                return;
            }
            pendingJoins.computeIfAbsent(group, g -> new ArrayList<>()).add(done);
            if (first) {
                gms.join(group, config.protocol().wireId());
            }
            // Cancelled once answered: thousands of joins in a row would otherwise keep a task each for 5 s.
            ScheduledFuture<?> timeout = loop.schedule(() -> joinTimedOut(group, listener, done),
                    JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            done.whenComplete((ok, failure) -> timeout.cancel(false));
        });
        return done;
    }

    /**
     * Refuses a join of one group more than max-groups, at the cost of a counter and a future: nothing is kept for
     * it, so any number of refused joins takes no memory.
     */
    private void refuseOverLimit(int group, CompletableFuture<Void> done) {
        driver.counters().increment(DaemonCounter.GROUP_LIMIT_REFUSALS);
        done.completeExceptionally(new ApiException(ApiException.Code.LIMIT_EXCEEDED, "node " + nodeId()
                + " is in " + driver.subscribedGroups().size() + " groups (joins in flight included), the limit "
                + "max-groups = " + config.maxGroups() + ": leave a group first, or raise max-groups; group "
                + group + " is not joined"));
    }

    /**
     * A join not confirmed in time fails, and leaves nothing behind: its listener is removed and, if it was the
     * group's last local subscriber, the daemon leaves the group in the GMS (no membership without an application).
     */
    private void joinTimedOut(int group, DeliveryListener listener, CompletableFuture<Void> done) {
        String refusal = gmsListener.lastRefusal(gms.partitionOf(group));
        if (!done.completeExceptionally(new ApiException(ApiException.Code.UNAVAILABLE,
                "the GMS partition of group " + group + " did not confirm the join within " + JOIN_TIMEOUT_SECONDS
                        + " s; the join is withdrawn, try again"
                        + (refusal == null ? "" : " (last refusal from that partition: " + refusal + ")")))) {
            return;
        }
        List<CompletableFuture<Void>> pending = pendingJoins.get(group);
        if (pending != null) {
            pending.remove(done);
            if (pending.isEmpty()) {
                pendingJoins.remove(group);
            }
        }
        if (driver.removeListener(group, listener)) {
            leaveGms(group);
            LOG.warn("join of group {} not confirmed by the GMS in {} s: withdrawn", group, JOIN_TIMEOUT_SECONDS);
        }
    }

    /**
     * Called on the loop after each view or event of {@code group} the GMS sent: whether this node is in it. Out
     * ends a leave in flight; in completes the pending joins, unless a leave is still in flight (a view the GMS sent
     * before it took the leave: the join this daemon sent after the leave is still to come).
     */
    private void membershipSeen(int group, boolean member) {
        if (!member) {
            leaving.remove(group);
            return;
        }
        if (leaving.contains(group)) {
            return;
        }
        List<CompletableFuture<Void>> pending = pendingJoins.remove(group);
        if (pending != null) {
            // Answered once the group's traffic reaches this node's sockets and each sender said where its stream
            // starts for this node: what others send after the answer is received and taken.
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_POINT_WAIT_MS);
            transport.whenListening(group, () -> whenJoinPointsIn(group, deadlineNs,
                    () -> pending.forEach(f -> f.complete(null))));
        }
    }

    /** Runs {@code task} on the loop once the engine has every join point of {@code group}, or at the deadline. */
    private void whenJoinPointsIn(int group, long deadlineNs, Runnable task) {
        int awaiting = driver.engine().awaitingJoinPoints(group);
        if (awaiting > 0 && System.nanoTime() - deadlineNs < 0) {
            loop.schedule(() -> whenJoinPointsIn(group, deadlineNs, task), 1, TimeUnit.MILLISECONDS);
            return;
        }
        if (awaiting > 0) {
            driver.counters().increment(DaemonCounter.JOINS_BEFORE_JOIN_POINTS);
            LOG.warn("group {}: join answered after {} ms with {} sender(s) yet to give their join point; their "
                    + "messages are delivered from it on", group, JOIN_POINT_WAIT_MS, awaiting);
        }
        task.run();
    }

    /**
     * Asks the GMS to take this node out of {@code group}, its last local subscriber gone; the datagram being
     * filled goes out first, while the node is still a member.
     */
    private void leaveGms(int group) {
        driver.sendOpenDatagram();
        gms.leave(group);
        if (driver.isMember(group)) {
            leaving.add(group);
        }
    }

    @Override
    public CompletableFuture<Void> leave(int group, DeliveryListener listener) {
        return onLoop(() -> {
            if (driver.removeListener(group, listener)) {
                leaveGms(group);
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<Long> send(int group, byte[] payload, DeliveryListener from, boolean wait) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        if (payload.length > maxMessage()) {
            done.completeExceptionally(new ApiException(ApiException.Code.PAYLOAD_TOO_LARGE, "payload of "
                    + payload.length + " bytes; the maximum is " + maxMessage() + " (max-message)"));
            return done;
        }
        if (closed) {
            done.completeExceptionally(new ApiException(ApiException.Code.UNAVAILABLE, "the daemon is stopping"));
            return done;
        }
        // One task and one future per message (sends are the API's hottest call): the send queue completes it.
        loop.execute(() -> {
            if (!driver.isMember(group)) {
                done.completeExceptionally(new ApiException(ApiException.Code.NOT_A_MEMBER, "node " + nodeId()
                        + " has not joined group " + group + ": join it first"));
                return;
            }
            try {
                sends.offer(group, payload, from, wait, done);
            } catch (RuntimeException e) {
                done.completeExceptionally(new ApiException(ApiException.Code.INTERNAL, e.toString()));
            }
        });
        return done;
    }

    @Override
    public CompletableFuture<NodeStats> stats() {
        return onLoop(() -> snapshot().withApi(api.counters()));
    }

    /** The stats without the API server's counters, stamped with the time they are read; on the loop. */
    private NodeStats snapshot() {
        landing.foldCounters();
        transport.foldCounters(driver.counters());
        return StatsReport.of(new StatsReport.Identity(nodeId(), incarnation, config.protocol().cliName(),
                transport.kind(), config.authentication(), transport.grantedReceiveBuffer()), driver, landing,
                gmsListener.links(), System.nanoTime(), System.currentTimeMillis());
    }

    /** What a scrape of the metrics endpoint shows, read on the loop. */
    private CompletableFuture<DaemonMetrics.Reading> metricsReading() {
        return onLoop(() -> new DaemonMetrics.Reading(snapshot().withApi(api.counters()), sends.size(),
                DaemonMetrics.latencies(driver.latencies()), DaemonMetrics.rateOfFire(driver.engine())));
    }

    private <T> CompletableFuture<T> onLoop(Callable<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        if (closed) {
            result.completeExceptionally(new ApiException(ApiException.Code.UNAVAILABLE, "the daemon is stopping"));
            return result;
        }
        loop.execute(() -> {
            try {
                result.complete(task.call());
            } catch (ApiException e) {
                result.completeExceptionally(e);
            } catch (Exception e) {
                result.completeExceptionally(new ApiException(ApiException.Code.INTERNAL, e.toString()));
            }
        });
        return result;
    }

    private void logStats() {
        LOG.info("{}", StatsReport.logLine(snapshot()));
    }

    /**
     * Completes with a one-line error when the daemon cannot go on and should stop: the GMS refused its cluster
     * keys (its key file is not the cluster's; the line names the file). Never completes otherwise.
     */
    public CompletableFuture<String> fatal() {
        return gmsListener.keyMismatch().thenApply(message -> ClusterKeyCheck.mismatchError(config.nodeId(),
                config.auth().keyFile(), message));
    }

    /** Leaves every group through the GMS, then closes the API, the GMS connections and the sockets. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            CompletableFuture<Void> left = new CompletableFuture<>();
            loop.execute(() -> {
                driver.sendOpenDatagram();
                sends.failAll(new ApiException(ApiException.Code.UNAVAILABLE, "the daemon is stopping"));
                for (int group : List.copyOf(driver.subscribedGroups())) {
                    gms.leave(group);
                }
                left.complete(null);
            });
            left.get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("could not leave groups cleanly: {}", e.toString());
        }
        MetricsEndpoint m = metrics;
        if (m != null) {
            m.close();
        }
        api.close();
        heartbeats.close();
        gms.close();
        controlGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        transport.close();
        LOG.info("node {} stopped", nodeId());
    }
}
