package io.ricochet.api.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.api.LocalNode;
import io.ricochet.api.protocol.ApiProtocol;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The local TCP API of the daemon (docs/api.md): applications on the blade connect, join groups, send, and receive
 * deliveries. One I/O thread serves every connection; each connection is a {@code LengthFieldBasedFrameDecoder}
 * (fail-fast at the frame limit), the frame codec, and a handler that talks to the {@link LocalNode}.
 *
 * <pre>{@code
 * ApiServer api = new ApiServer(node, ApiConfig.defaults());
 * api.start();                      // listens on 127.0.0.1:7400
 * NodeStats withApi = stats.withApi(api.counters()); // the STATS reply carries them under "api"
 * api.close();
 * }</pre>
 */
public final class ApiServer implements AutoCloseable {
    private final LocalNode node;
    private final ApiConfig config;
    private final ApiCounters counters = new ApiCounters();
    private EventLoopGroup group;
    private ChannelGroup connections;
    private Channel listener;

    public ApiServer(LocalNode node, ApiConfig config) {
        this.node = Objects.requireNonNull(node, "node");
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Binds the port and starts accepting connections.
     *
     * @throws IOException if the address cannot be bound (port in use, unknown address)
     */
    public synchronized void start() throws IOException {
        if (group != null) {
            throw new IllegalStateException("already started");
        }
        ClassPreloader.preload();
        group = new NioEventLoopGroup(1, new DefaultThreadFactory("ricochet-api", true));
        connections = new DefaultChannelGroup("ricochet-api", group.next());
        int maxPayload = Math.min(node.maxPayload(), ApiProtocol.payloadLimit(config.maxFrameLength()));
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .handler(new AcceptErrors(counters))
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.MESSAGE_SIZE_ESTIMATOR, FrameSizeEstimator.INSTANCE)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                        config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new FrameSplitter(config.maxFrameLength(),
                                        config.partialFrameTimeout().toMillis()),
                                new FrameCodecHandler(counters),
                                new ApiConnection(node, counters, config, maxPayload));
                    }
                });
        try {
            listener = bootstrap.bind(config.bindAddress(), config.port()).sync().channel();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            group = null;
            throw new IOException("cannot listen on " + config.bindAddress() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The port the server listens on (the chosen one when the config says 0). */
    public synchronized int boundPort() {
        if (listener == null) {
            throw new IllegalStateException("not started");
        }
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** A snapshot of the {@link ApiCounter}s keyed by name, for the daemon to merge into its stats. */
    public Map<String, Long> counters() {
        return counters.snapshot();
    }

    /** The current value of one counter. */
    public long counter(ApiCounter counter) {
        return counters.get(counter);
    }

    /** Stops listening and closes every connection (which leaves their groups). Idempotent. */
    @Override
    public synchronized void close() {
        if (group == null) {
            return;
        }
        if (listener != null) {
            listener.close().awaitUninterruptibly();
        }
        connections.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        group = null;
        listener = null;
    }
}
