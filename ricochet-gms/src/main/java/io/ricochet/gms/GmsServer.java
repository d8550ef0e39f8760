package io.ricochet.gms;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.ricochet.control.ControlPipeline;
import io.ricochet.control.ControlTransport;
import io.ricochet.control.Serving;
import io.ricochet.control.tls.TlsServerGate;
import io.ricochet.support.RateLimitedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One GMS partition: a TCP server (epoll or NIO) speaking the control protocol, with its {@link MembershipState}.
 * Every connection and the state run on one event loop thread, so nothing is locked; a partition's load is a few
 * messages per membership change. Counters are logged at INFO every {@code statsIntervalSeconds} and on close.
 */
public final class GmsServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GmsServer.class);
    /** A session whose unsent output passes this is closed (it reconnects and gets a snapshot). */
    private static final int HIGH_WATER_BYTES = 8 << 20;
    private static final int VIEW_ID_SHIFT = 20;
    /** At most one WARN per this about failed handshakes; the others go to DEBUG and a count. */
    private static final long TLS_WARN_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);

    private final GmsConfig config;
    private final GmsCounters counters = new GmsCounters();
    private final EventLoopGroup loop;
    private final SessionTable sessions = new SessionTable(counters);
    private Channel serverChannel;
    private boolean closed;

    public GmsServer(GmsConfig config) {
        this.config = config;
        this.loop = ControlTransport.newGroup(1, "gms-p" + config.partitioning().index());
    }

    /**
     * Binds and starts serving; returns the address bound (the port is chosen if the config says 0).
     *
     * @throws IOException if the address cannot be bound (in use, not local, ...); the server is then closed
     */
    public synchronized InetSocketAddress start() throws IOException {
        // View ids start at (start time in ms) << 20, so a restarted partition issues higher ones than its
        // previous run as long as that run issued fewer than 2^20 ids per millisecond of its life.
        long initialViewId = Instant.now().toEpochMilli() << VIEW_ID_SHIFT;
        MembershipState state = new MembershipState(config.partitioning(), config.multicast(), initialViewId);
        DaemonRequests daemons = new DaemonRequests(state, sessions, counters);
        GmsSessionHandler handler = new GmsSessionHandler(daemons,
                new DetectorReports(state, sessions, daemons, counters), sessions, counters,
                config.tls().enabled(),
                new Serving(config.partitioning().index(), config.partitioning().count(), 0));
        RateLimitedLog tlsWarnings = new RateLimitedLog(LOG, TLS_WARN_INTERVAL_NS);
        TlsServerGate gate = new TlsServerGate((remote, why) -> {
            counters.increment(GmsCounter.TLS_FAILURES);
            tlsWarnings.warn("TLS handshake with {} failed: {}; connection closed", remote, why);
        });
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loop, loop)
                .channel(ControlTransport.serverChannel(loop))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(HIGH_WATER_BYTES / 2, HIGH_WATER_BYTES))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ControlPipeline.installServer(ch, config.tls(), gate);
                        ch.pipeline().addLast("gms", handler);
                    }
                });
        try {
            serverChannel = bootstrap.bind(config.bind()).sync().channel();
        } catch (Exception e) {
            close();
            throw new IOException("cannot listen on " + describe(config.bind()) + ": " + e.getMessage(), e);
        }
        long intervalSeconds = config.statsIntervalSeconds();
        loop.scheduleAtFixedRate(this::logCounters, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
        if (!config.tls().enabled()) {
            LOG.warn("GMS partition {} runs INSECURE: plaintext connections, no roles; any host that reaches its "
                    + "port can register as any node, join, leave and report failures", config.partitioning().index());
        }
        LOG.info("GMS partition {} of {} listening on {} (multicast pool {}/16, port {}), control links {}",
                config.partitioning().index(), config.partitioning().count(), describe(localAddress()),
                config.multicast().base().getHostAddress(), config.multicast().port(), config.tls().describe());
        return localAddress();
    }

    /** The address the server listens on (after {@link #start}). */
    public synchronized InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Blocks until the server is closed (by {@link #close}, from another thread). */
    public void awaitClose() {
        Channel channel;
        synchronized (this) {
            channel = serverChannel;
        }
        if (channel != null) {
            channel.closeFuture().awaitUninterruptibly();
        }
    }

    /** The current value of {@code counter}. */
    public long counter(GmsCounter counter) {
        return counters.get(counter);
    }

    /** Stops listening, closes every connection and logs the counters; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
        }
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        if (serverChannel != null) {
            LOG.info("GMS partition {} stopped: sessions={} {}", config.partitioning().index(), sessions.size(),
                    counters.line());
        }
    }

    private void logCounters() {
        LOG.info("GMS partition {}: sessions={} {}", config.partitioning().index(), sessions.size(), counters.line());
    }

    private static String describe(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
