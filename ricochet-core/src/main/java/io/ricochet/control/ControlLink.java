package io.ricochet.control;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsFailures;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP connection to a control server (a GMS partition) that reconnects for ever: 100 ms after a failure,
 * doubling to a 5 s cap, back to 100 ms once connected. It logs "{@code <name>} down" at WARN and
 * "{@code <name>} up" at INFO once per transition, and tells its {@link Handler} the same.
 *
 * <p>Everything runs on one event loop taken from the group at construction: the handler's callbacks, and
 * whatever callers hand to {@link #execute}. So a handler's state needs no locks.
 *
 * <p>With TLS on, the link is up only once the handshake has succeeded and the server's certificate has the role
 * {@code gms}; a failed handshake (the server's certificate is from another CA, or expired) or another role counts
 * as a failed connect, logged at WARN once per transition with the reason, and retried with the same backoff.
 */
final class ControlLink {
    static final long INITIAL_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    private static final long CLOSE_WAIT_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(ControlLink.class);

    /** What a link's user hears; all on the link's event loop. */
    interface Handler {
        /** Connected: the channel is open and nothing has been sent on it yet. */
        void onUp();

        /** The server sent {@code message}. */
        void onMessage(ControlMessage message);

        /** The connection was lost or could not be made, the first time since the last {@link #onUp}. */
        void onDown();
    }

    private final String name;
    private final InetSocketAddress remote;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final TlsSettings tls;
    private final Backoff backoff = new Backoff(INITIAL_BACKOFF_MS, MAX_BACKOFF_MS);
    private Handler handler;
    private Channel channel;
    private Boolean up;
    private Future<?> retry;
    /** Why the connected channel is closing, when this end knows (a TLS alert from the server), else null. */
    private String closeReason;
    /**
     * The last connection was ended by a TLS alert from the server (it refused this end's certificate after the
     * handshake looked done): the next connect does not reset the backoff, so a refused link retries every 5 s,
     * not every 100 ms. Cleared by the first message from the server or a close for any other reason.
     */
    private boolean refusedByServer;
    private volatile boolean closed;

    ControlLink(String name, InetSocketAddress remote, EventLoopGroup group, TlsSettings tls) {
        this.name = name;
        this.remote = remote;
        this.tls = tls;
        this.loop = group.next();
        this.bootstrap = new Bootstrap()
                .group(loop)
                .channel(ControlTransport.socketChannel(group))
                .remoteAddress(remote)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ControlPipeline.installClient(ch, tls, remote);
                        ch.pipeline().addLast("control-link", new Inbound());
                    }
                });
    }

    /** Starts connecting; {@code handler} hears everything from now on. */
    void start(Handler handler) {
        this.handler = handler;
        execute(this::connect);
    }

    /** Runs {@code task} on the link's event loop (not at all once the group is shut down). */
    void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("{}: event loop is shut down; task dropped", name);
        }
    }

    /** The connected channel, or null; call on the link's event loop. */
    Channel channel() {
        return channel != null && channel.isActive() ? channel : null;
    }

    /** Writes and flushes {@code message} if connected; returns whether it was written. On the event loop. */
    boolean send(ControlMessage message) {
        Channel ch = channel();
        if (ch == null) {
            return false;
        }
        ch.writeAndFlush(message, ch.voidPromise());
        return true;
    }

    String name() {
        return name;
    }

    /** Stops reconnecting and closes the connection; waits for that unless called on the event loop. */
    void close() {
        closed = true;
        try {
            Future<?> done = loop.submit(() -> {
                if (retry != null) {
                    retry.cancel(false);
                }
                if (channel != null) {
                    channel.close();
                }
            });
            if (!loop.inEventLoop()) {
                done.awaitUninterruptibly(CLOSE_WAIT_MS);
            }
        } catch (RejectedExecutionException e) {
            LOG.debug("{}: event loop already shut down", name);
        }
    }

    private void connect() {
        retry = null;
        if (closed) {
            return;
        }
        bootstrap.connect().addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                markDown(f.cause());
                scheduleRetry();
            } else if (closed) {
                f.channel().close();
            } else if (tls.enabled()) {
                f.channel().pipeline().get(SslHandler.class).handshakeFuture()
                        .addListener(h -> onHandshake(f.channel(), h.isSuccess() ? null : h.cause()));
            } else {
                connected(f.channel());
            }
        });
    }

    private void connected(Channel ch) {
        channel = ch;
        markUp();
        // Handled in a task of its own: the exception that explains a close (a TLS alert) may be fired just after
        // the close, in the same call, and its reason then goes into the "down" line.
        ch.closeFuture().addListener(c -> execute(() -> onClosed(ch)));
    }

    /** After the TLS handshake ({@code failure} null if it succeeded): up if the server is a GMS. */
    private void onHandshake(Channel ch, Throwable failure) {
        if (closed) {
            ch.close();
            return;
        }
        PeerIdentity server = failure == null ? PeerIdentity.of(ch) : null;
        if (failure == null && server != null && server.role() == PeerIdentity.Role.GMS) {
            connected(ch);
            return;
        }
        ch.close();
        if (failure != null) {
            markDown("TLS handshake failed: " + TlsFailures.describe(failure));
        } else {
            markDown("the server's certificate is for " + server + ", not a GMS (OU=gms); not talking to it");
        }
        scheduleRetry();
    }

    private void onClosed(Channel closedChannel) {
        if (closedChannel != channel) {
            return;
        }
        channel = null;
        String why = closeReason;
        closeReason = null;
        refusedByServer = why != null;
        if (!closed) {
            markDown(why);
            scheduleRetry();
        }
    }

    private void scheduleRetry() {
        if (!closed) {
            retry = loop.schedule(this::connect, backoff.nextDelayMs(), TimeUnit.MILLISECONDS);
        }
    }

    private void markUp() {
        if (!refusedByServer) {
            backoff.reset();
        }
        up = Boolean.TRUE;
        LOG.info("{} up ({})", name, remote);
        handler.onUp();
    }

    private void markDown(Throwable cause) {
        markDown(cause == null ? null : cause.getMessage());
    }

    private void markDown(String why) {
        if (up == Boolean.FALSE) {
            LOG.debug("{}: still down: {}", name, why == null ? "closed" : why);
            return;
        }
        up = Boolean.FALSE;
        LOG.warn("{} down ({}{}); retrying every {}..{} ms", name, remote,
                why == null ? ", connection closed" : ": " + why, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS);
        handler.onDown();
    }

    /** Hands messages to the handler; closes on anything malformed or broken (the link then reconnects). */
    private final class Inbound extends SimpleChannelInboundHandler<ControlMessage> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ControlMessage message) {
            if (refusedByServer) {
                refusedByServer = false;
                backoff.reset();
            }
            handler.onMessage(message);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ControlPipeline.isMalformedInput(cause)) {
                LOG.warn("{}: malformed frame from {}: {}; reconnecting", name, remote,
                        ControlPipeline.describe(cause));
            } else if (TlsFailures.isTls(cause)) {
                // In TLS 1.3 a server that refuses this end's certificate (expired, say) says so after the client
                // finished its handshake: the alert arrives here, and the "down" line gives it as the reason.
                String why = "TLS: " + TlsFailures.describe(cause);
                if (ctx.channel() == channel) {
                    closeReason = why;
                }
                LOG.debug("{}: {}", name, why);
            } else {
                LOG.debug("{}: connection error: {}", name, cause.toString());
            }
            ctx.close();
        }
    }
}
