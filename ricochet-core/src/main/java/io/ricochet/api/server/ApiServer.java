package io.ricochet.api.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.api.LocalNode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local TCP API of the daemon (docs/api.md): applications on the blade connect, join groups, send, and receive
 * deliveries. One I/O thread serves every connection: the server's own, or the loop it is given (the daemon gives
 * its engine's, so a delivery is written where it is made, with no hand-off to another thread and no wake-up of
 * one); each connection is a {@code LengthFieldBasedFrameDecoder} (fail-fast at the frame limit), the frame codec,
 * and a handler that talks to the {@link LocalNode}.
 *
 * <p>With {@link ApiConfig#unixSocket()} set, the server also listens on that Unix domain socket (Netty's native
 * epoll transport: on the loop it is given if that is an epoll one, else on one more I/O thread), whose file mode
 * and group decide who may connect; see {@link UnixSocketListener}. Its connections get the same pipeline, limits
 * and counters as TCP ones, and {@link ApiConfig#maxConnections()} counts both kinds together. With
 * {@link ApiAccess#tcp()} off it listens on the Unix socket only. Each connection is given a {@link Principal}
 * (a Unix socket peer's uid and gid, read with SO_PEERCRED, or "tcp") whose quotas {@link PrincipalQuotas} keeps,
 * and whose JOINs and SENDs the group allow list ({@link GroupAccess}) may refuse.
 *
 * <pre>{@code
 * ApiServer api = new ApiServer(node, ApiConfig.defaults());
 * api.start();                      // listens on 127.0.0.1:7400
 * NodeStats withApi = stats.withApi(api.counters()); // the STATS reply carries them under "api"
 * api.close();
 * }</pre>
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private final LocalNode node;
    private final ApiConfig config;
    private final ApiCounters counters = new ApiCounters();
    private EventLoopGroup group;
    private ChannelGroup connections;
    private Channel listener;
    private EventLoopGroup unixGroup;
    private UnixSocketListener unixListener;
    /** The loop the caller gave (not ours to shut down), or null: the server makes its own. */
    private final EventLoopGroup shared;
    private final PeerCredentialsLookup credentials;
    private final PrincipalQuotas quotas;
    /** Bytes frames above the configured frame length may hold at once, over all connections (at least one frame). */
    private long largeFrameBudget = DEFAULT_LARGE_FRAME_BUDGET;
    private LargeFrameBudget budget;

    /**
     * Default of the daemon-wide budget of bytes held by frames above {@link ApiConfig#maxFrameLength()}: version 3
     * SENDs larger than that, from their length prefix until their reply is written (docs/api.md, "Limits"). It is
     * raised to one frame of the largest message if that is larger.
     */
    public static final long DEFAULT_LARGE_FRAME_BUDGET = 64L * 1024 * 1024;

    /** A server with an I/O thread of its own. */
    public ApiServer(LocalNode node, ApiConfig config) {
        this(node, config, null);
    }

    /**
     * A server whose connections live on {@code shared} (one thread; epoll or NIO, its channels chosen to match),
     * which it neither owns nor shuts down; nothing on it may block (every {@link LocalNode} call returns a future).
     */
    public ApiServer(LocalNode node, ApiConfig config, EventLoopGroup shared) {
        this(node, config, shared, PeerCredentialsLookup.real(), System::nanoTime);
    }

    /** For tests: a server that finds each connection's principal with {@code credentials}, its clock {@code nanos}. */
    ApiServer(LocalNode node, ApiConfig config, EventLoopGroup shared, PeerCredentialsLookup credentials,
            LongSupplier nanos) {
        this.node = Objects.requireNonNull(node, "node");
        this.config = Objects.requireNonNull(config, "config");
        this.shared = shared;
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.quotas = new PrincipalQuotas(config.access(), nanos);
    }

    /** For tests: the large frame budget, before {@link #start()}. */
    synchronized void largeFrameBudget(long bytes) {
        if (group != null) {
            throw new IllegalStateException("already started");
        }
        largeFrameBudget = bytes;
    }

    /** For tests: bytes the large frame budget holds now. */
    long largeFrameBytes() {
        return budget == null ? 0 : budget.reserved();
    }

    private boolean sharedIsEpoll() {
        return shared instanceof EpollEventLoopGroup;
    }

    /**
     * Binds the port (unless TCP is off, {@link ApiAccess#tcp()}), and the Unix socket if one is configured, and
     * starts accepting connections. With TCP on, logs a warning that any local user may use the API.
     *
     * @throws ApiListenException if the address cannot be bound (port in use, unknown address), or the Unix socket
     *                             cannot be set up (no epoll, no such directory, a file that is not a stale socket
     *                             in the way, an unknown group); nothing is left listening then
     */
    public synchronized void start() throws ApiListenException {
        if (group != null) {
            throw new IllegalStateException("already started");
        }
        if (config.unixSocket() != null && !Epoll.isAvailable()) {
            throw ApiListenException.unix(config.unixSocket(), "Unix sockets need Linux with Netty's native epoll "
                    + "transport, which is unavailable here (" + Epoll.unavailabilityCause() + "); use TCP only",
                    Epoll.unavailabilityCause());
        }
        ClassPreloader.preload();
        group = shared != null ? shared : new NioEventLoopGroup(1, new DefaultThreadFactory("ricochet-api", true));
        connections = new DefaultChannelGroup("ricochet-api", group.next());
        ApiConnection.Limits limits = ApiConnection.Limits.of(node, config);
        budget = new LargeFrameBudget(Math.max(largeFrameBudget, limits.largeFrameLength()), counters);
        ChannelInitializer<Channel> pipeline = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                connections.add(ch);
                LargeFrameBudget.Account account = budget.open();
                ch.pipeline().addLast(new FrameSplitter(config.maxFrameLength(),
                                config.partialFrameTimeout().toMillis(), account),
                        new FrameCodecHandler(counters),
                        new ApiConnection(node, counters, config, limits, account, credentials, quotas));
            }
        };
        if (config.access().tcp()) {
            startTcp(pipeline);
        }
        if (config.unixSocket() != null) {
            try {
                startUnix(pipeline);
            } catch (ApiListenException | RuntimeException e) {
                close();
                throw e;
            }
        }
    }

    private void startTcp(ChannelInitializer<Channel> pipeline) throws ApiListenException {
        ServerBootstrap bootstrap = connectionOptions(new ServerBootstrap()
                .group(group)
                .channel(sharedIsEpoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .handler(new AcceptErrors(counters))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(pipeline));
        try {
            listener = bootstrap.bind(config.bindAddress(), config.port()).sync().channel();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            close();
            throw ApiListenException.tcp(config.bindAddress(), config.port(), String.valueOf(e.getMessage()), e);
        }
        counters.add(ApiCounter.TCP_OPEN, 1);
        // Said once at start, and kept in the TCP_OPEN gauge: TCP has no peer credentials (docs/design/security.md).
        LOG.warn("the API listens on TCP {}:{}: any local user may connect, join any group, read its traffic and "
                + "send as this node; set api-tcp=off and use api-unix-socket to restrict it to a group of users",
                config.bindAddress(), boundPort());
    }

    private void startUnix(ChannelInitializer<Channel> pipeline) throws ApiListenException {
        EventLoopGroup loop = sharedIsEpoll() ? shared
                : (unixGroup = new EpollEventLoopGroup(1, new DefaultThreadFactory("ricochet-api-unix", true)));
        ServerBootstrap bootstrap = connectionOptions(new ServerBootstrap()
                .group(loop)
                .channel(EpollServerDomainSocketChannel.class)
                .handler(new AcceptErrors(counters))
                .childHandler(pipeline));
        unixListener = UnixSocketListener.bind(bootstrap, config);
        LOG.info("the API listens on Unix socket {} (mode {}, group {})", config.unixSocket(),
                config.unixSocketMode(), config.unixSocketGroup() == null ? "unchanged" : config.unixSocketGroup());
    }

    /** The options every connection gets, TCP or Unix. */
    private ServerBootstrap connectionOptions(ServerBootstrap bootstrap) {
        return bootstrap
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.MESSAGE_SIZE_ESTIMATOR, FrameSizeEstimator.INSTANCE)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                        config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()));
    }

    /** The port the server listens on (the chosen one when the config says 0). */
    public synchronized int boundPort() {
        if (listener == null) {
            throw new IllegalStateException(config.access().tcp() ? "not started" : "TCP is off (api-tcp)");
        }
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /**
     * Where the server listens, for a log line: {@code 127.0.0.1:7400}, {@code 127.0.0.1:7400 and unix:/path}, or
     * {@code unix:/path only (TCP off)}.
     */
    public synchronized String listeners() {
        String unix = unixListener == null ? null : "unix:" + unixListener.path();
        if (listener == null) {
            return unix == null ? "nothing" : unix + " only (TCP off)";
        }
        String tcp = config.bindAddress() + ":" + boundPort();
        return unix == null ? tcp : tcp + " and " + unix;
    }

    /** The Unix socket the server listens on, or null if none is configured or it is not started. */
    public synchronized Path unixSocket() {
        return unixListener == null ? null : unixListener.path();
    }

    /** A snapshot of the {@link ApiCounter}s keyed by name, for the daemon to merge into its stats. */
    public Map<String, Long> counters() {
        return counters.snapshot();
    }

    /** The current value of one counter. */
    public long counter(ApiCounter counter) {
        return counters.get(counter);
    }

    /**
     * Stops listening, deletes the Unix socket file, and closes every connection (which leaves their groups).
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (group == null) {
            return;
        }
        if (listener != null) {
            listener.close().awaitUninterruptibly();
            counters.add(ApiCounter.TCP_OPEN, -1);
        }
        if (unixListener != null) {
            unixListener.close();
        }
        connections.close().awaitUninterruptibly();
        if (unixGroup != null) {
            unixGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
        if (group != shared) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
        group = null;
        listener = null;
        unixGroup = null;
        unixListener = null;
    }
}
