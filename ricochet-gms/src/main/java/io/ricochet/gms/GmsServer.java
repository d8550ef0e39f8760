package io.ricochet.gms;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.ricochet.control.codec.ControlPipeline;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.link.TcpChannels;
import io.ricochet.control.tls.CertificateExpiry;
import io.ricochet.control.tls.TlsServerGate;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.support.Directories;
import io.ricochet.support.RateLimitedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.server.DivisionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One GMS replica process: a replica of each partition it hosts, each partition a Raft group of all the
 * configured replicas ({@link RaftReplica}, Apache Ratis) whose state machine is the partition's
 * {@link MembershipState}, and per partition a TCP server (epoll or NIO) speaking the control protocol on
 * {@link Replica#controlAddress}. The replica that leads a partition serves its sessions; the others redirect
 * them ({@link PartitionService}). Every connection runs on one event loop thread, so nothing is locked there; a
 * partition's load is a few messages per membership change. Counters and each partition's Raft role, term and
 * commit index are logged at INFO every {@code statsIntervalSeconds} and on close.
 *
 * <p>The front door ({@link FrontDoorSettings}): each listening socket holds a bounded number of connections, in
 * all and per peer address ({@link ConnectionGate}), a TLS handshake must finish within a bounded time, and a
 * session with too many requests in the Raft log is not read until some are committed ({@link SessionPacer}).
 */
public final class GmsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GmsServer.class);
    /** A session whose unsent output passes this is closed (it reconnects and gets a snapshot). */
    private static final int HIGH_WATER_BYTES = 8 << 20;
    /** At most one WARN per this about failed handshakes; the others go to DEBUG and a count. */
    private static final long TLS_WARN_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);
    /**
     * At most one WARN per this per reason about connections refused at the front door (over a cap, a handshake
     * timed out): a flood of them is one line a minute, its size in the counters.
     */
    private static final long FRONT_DOOR_WARN_INTERVAL_NS = TimeUnit.MINUTES.toNanos(1);
    /** How long {@link #start} waits for a replica alone to lead its partitions, so that "listening" means served. */
    private static final long LONE_LEADER_WAIT_MS = 10_000;

    private final GmsConfig config;
    private final GmsCounters counters = new GmsCounters();
    private final EventLoopGroup loop;
    private final Map<Integer, PartitionService> partitions = new LinkedHashMap<>();
    private final Map<Integer, Channel> channels = new LinkedHashMap<>();
    private final RateLimitedLog overTotalWarnings = new RateLimitedLog(LOG, FRONT_DOOR_WARN_INTERVAL_NS);
    private final RateLimitedLog overAddressWarnings = new RateLimitedLog(LOG, FRONT_DOOR_WARN_INTERVAL_NS);
    private final RateLimitedLog timeoutWarnings = new RateLimitedLog(LOG, FRONT_DOOR_WARN_INTERVAL_NS);
    private RaftReplica raft;
    private Path temporaryStorage;
    private MetricsEndpoint metrics;
    private boolean closed;

    public GmsServer(GmsConfig config) {
        this.config = config;
        this.loop = TcpChannels.newGroup(1, "gms-r" + config.self());
    }

    /**
     * Starts the Raft replica (recovering its state from the storage directory), then listens for every hosted
     * partition; returns the control address of the first hosted partition (ports chosen if the config says 0).
     *
     * @throws IOException if the storage cannot be used or an address cannot be bound; the server is then closed
     */
    public synchronized InetSocketAddress start() throws IOException {
        Path storage = config.storage();
        if (storage == null) {
            temporaryStorage = Files.createTempDirectory("ricochet-gms-");
            storage = temporaryStorage;
        }
        for (int p : config.hosted()) {
            Partitioning partitioning = new Partitioning(p, config.partitions());
            partitions.put(p, new PartitionService(partitioning, config, RaftReplica.groupIdOf(partitioning),
                    loop.next(), counters));
        }
        try {
            raft = new RaftReplica(config, storage, new ArrayList<>(partitions.values()));
            raft.start();
            for (PartitionService partition : partitions.values()) {
                channels.put(partition.partitioning().index(), listen(partition));
            }
            if (config.replicas().size() == 1) {
                awaitLeadership(LONE_LEADER_WAIT_MS);
            }
            CertificateExpiry expiry = CertificateExpiry.of(config.tls(), "GMS replica " + config.self()
                    + "'s TLS certificate (--tls-cert)", Clock.systemUTC());
            metrics = MetricsEndpoint.start(config.metrics(), CertificateExpiry.withExpiry(
                    new GmsMetrics(counters::get, this::partitionReadings), expiry), "gms-r" + config.self(),
                    "--metrics-port");
            if (expiry != null) {
                expiry.checkDaily(loop.next());
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        loop.scheduleAtFixedRate(() -> partitions.values().forEach(PartitionService::pushStatus), 1, 1,
                TimeUnit.SECONDS);
        long intervalSeconds = config.statsIntervalSeconds();
        loop.scheduleAtFixedRate(this::logStats, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
        if (!config.tls().enabled()) {
            LOG.warn("GMS replica {} runs INSECURE: plaintext connections, no roles; any host that reaches its "
                    + "ports can register as any node, join, leave and report failures", config.self());
        }
        List<String> listening = new ArrayList<>();
        channels.forEach((p, ch) -> listening.add("partition " + p + " on " + describe(address(p))));
        LOG.info("GMS replica {} of {} ({} partition(s) in all; Raft on {}, state in {}) listening: {} "
                        + "(multicast pool {}/16, port {}; {}), control links {}", config.self(),
                config.replicas().size(), config.partitions(), raft.raftAddress(), storage, String.join(", ",
                        listening), config.multicast().base().getHostAddress(), config.multicast().port(),
                config.regions().enabled() ? "regions on, pool " + config.regions().pool().base().getHostAddress()
                        + "/16, min region size " + config.regions().minRegionSize() : "regions off",
                config.tls().describe());
        return localAddress();
    }

    /** The control address of the first hosted partition (after {@link #start}). */
    public synchronized InetSocketAddress localAddress() {
        return address(config.hosted().get(0));
    }

    /** The control address of hosted partition {@code partition} (after {@link #start}). */
    public synchronized InetSocketAddress address(int partition) {
        return (InetSocketAddress) channels.get(partition).localAddress();
    }

    /** This replica's Raft role, term and commit index for {@code partition}, in words (for stats and tests). */
    public String raftStatus(int partition) {
        PartitionService service = partitions.get(partition);
        DivisionInfo info = service == null ? null : service.raftInfo();
        if (info == null) {
            return "not running";
        }
        return "role=" + info.getCurrentRole().name().toLowerCase() + " term=" + info.getCurrentTerm()
                + " commit=" + service.commitIndex() + " applied=" + info.getLastAppliedIndex()
                + " leader=" + (info.getLeaderId() == null ? "unknown" : info.getLeaderId());
    }

    /** Whether this replica leads {@code partition} and can serve it. */
    public boolean isLeader(int partition) {
        PartitionService service = partitions.get(partition);
        DivisionInfo info = service == null ? null : service.raftInfo();
        return info != null && info.isLeader() && info.isLeaderReady();
    }

    /**
     * Waits up to {@code timeoutMs} until this replica leads every partition it hosts (a replica alone does within
     * about 100 ms of starting); returns whether it does.
     */
    public boolean awaitLeadership(long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!config.hosted().stream().allMatch(this::isLeader)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Blocks until the server is closed (by {@link #close}, from another thread). */
    public void awaitClose() {
        List<Channel> open;
        synchronized (this) {
            open = new ArrayList<>(channels.values());
        }
        open.forEach(ch -> ch.closeFuture().awaitUninterruptibly());
    }

    /** The port of the Prometheus endpoint, or 0 if it is off. */
    public synchronized int metricsPort() {
        return metrics == null ? 0 : metrics.port();
    }

    /**
     * Each hosted partition's state for a scrape, read on the event loop, where the sessions live (every partition
     * shares its one thread, as {@link #logStats} does).
     */
    private CompletableFuture<List<GmsMetrics.Partition>> partitionReadings() {
        CompletableFuture<List<GmsMetrics.Partition>> done = new CompletableFuture<>();
        try {
            loop.next().execute(() -> {
                List<GmsMetrics.Partition> read = new ArrayList<>();
                for (PartitionService p : partitions.values()) {
                    DivisionInfo info = p.raftInfo();
                    int index = p.partitioning().index();
                    read.add(new GmsMetrics.Partition(index, isLeader(index), info == null ? 0 : info.getCurrentTerm(),
                            p.commitIndex(), info == null ? -1 : info.getLastAppliedIndex(),
                            p.stateMachine().groupCount(), p.sessions().size()));
                }
                done.complete(read);
            });
        } catch (RejectedExecutionException e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    /** The current value of {@code counter}. */
    public long counter(GmsCounter counter) {
        return counters.get(counter);
    }

    /** Stops listening, closes every connection, stops the Raft replica and logs the counters; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (metrics != null) {
            metrics.close();
        }
        channels.values().forEach(ch -> ch.close().awaitUninterruptibly());
        boolean started = raft != null;
        partitions.values().forEach(PartitionService::close);
        if (started) {
            logStats();
            raft.close();
        }
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        if (temporaryStorage != null) {
            try {
                Directories.deleteTree(temporaryStorage);
            } catch (IOException e) {
                LOG.debug("could not delete {}: {}", temporaryStorage, e.toString());
            }
        }
        if (started) {
            LOG.info("GMS replica {} stopped: {}", config.self(), counters.line());
        }
    }

    private Channel listen(PartitionService partition) throws IOException {
        int index = partition.partitioning().index();
        RateLimitedLog tlsWarnings = new RateLimitedLog(LOG, TLS_WARN_INTERVAL_NS);
        FrontDoorSettings frontDoor = config.frontDoor();
        TlsServerGate gate = new TlsServerGate(new TlsServerGate.Listener() {
            @Override
            public void onHandshakeFailed(SocketAddress remote, String why) {
                counters.increment(GmsCounter.TLS_FAILURES);
                tlsWarnings.warn("TLS handshake with {} failed: {}; connection closed", remote, why);
            }

            @Override
            public void onHandshakeTimedOut(SocketAddress remote) {
                counters.increment(GmsCounter.HANDSHAKE_TIMEOUTS);
                timeoutWarnings.warn("partition {}: TLS handshake with {} not finished within {} ms; connection "
                        + "closed (--tls-handshake-timeout-ms)", index, remote, frontDoor.handshakeTimeoutMs());
            }
        });
        ConnectionGate connections = new ConnectionGate(frontDoor, counters, "partition " + index,
                overTotalWarnings, overAddressWarnings);
        DaemonRequests daemons = new DaemonRequests(partition.partitioning(), partition.sessions(), counters,
                partition, new KeyCheck(config.keyFingerprints()));
        DetectorReports detectors = new DetectorReports(partition.partitioning(), counters, partition);
        GmsSessionHandler handler = new GmsSessionHandler(daemons, detectors, partition.sessions(), counters,
                config.tls().enabled(), partition, partition.pacer());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loop, loop)
                .channel(TcpChannels.serverChannel(loop))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(HIGH_WATER_BYTES / 2, HIGH_WATER_BYTES))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (connections.admit(ch)) {
                            ControlPipeline.installServer(ch, config.tls(), gate, frontDoor.handshakeTimeoutMs());
                            ch.pipeline().addLast("gms", handler);
                        }
                    }
                });
        InetSocketAddress bind = config.replica().controlAddress(index);
        try {
            return bootstrap.bind(bind).sync().channel();
        } catch (Exception e) {
            throw new IOException("cannot listen on " + describe(bind) + " for partition " + index + ": "
                    + e.getMessage(), e);
        }
    }

    private void logStats() {
        StringBuilder raftLine = new StringBuilder();
        int sessionCount = 0;
        for (PartitionService p : partitions.values()) {
            raftLine.append(" | p").append(p.partitioning().index()).append(": ").append(
                    raftStatus(p.partitioning().index())).append(" groups=").append(p.stateMachine().groupCount());
            sessionCount += p.sessions().size();
        }
        LOG.info("GMS replica {}: sessions={} {}{}", config.self(), sessionCount, counters.line(), raftLine);
    }

    private static String describe(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
