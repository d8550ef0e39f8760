package io.ricochet.api.server;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.api.ApiException;
import io.ricochet.api.LocalNode;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiFrameType;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.api.protocol.MalformedFrameException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a client connection: admits it under the connection limits (its principal's and the
 * server's), enforces HELLO first (within the
 * HELLO timeout), hands requests to a {@link RequestHandler} and writes their replies, and ends the connection on
 * bad input with one ERROR frame. Peer input never escapes as an exception.
 *
 * <p>Also applies backpressure to requests. The connection stops reading while its write buffer is above the high
 * water mark, and while {@link ApiConfig#maxRequestsInFlight()} requests are in flight (started, reply not yet
 * written); it reads again once half of them are written. Requests that arrive in the read buffer the daemon
 * already took wait in order until one finishes, so no more than the limit are ever in flight, and a client that
 * sends requests but reads no replies cannot grow daemon memory. Runs on the connection's I/O thread only.
 */
final class ApiConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ApiConnection.class);
    /** How long a refused connection may take to read its ERROR frame before it is closed anyway. */
    private static final long CLOSE_GRACE_MS = 5_000;

    /**
     * The sizes a connection is served with, by protocol version (docs/api.md, "Limits").
     *
     * @param maxPayload       versions 1 and 2: the largest SEND payload, in HELLO_REPLY (a datagram's, within the
     *                         configured frame length)
     * @param maxMessage       version 3: the largest SEND payload, in HELLO_REPLY (the daemon's {@code max-message},
     *                         at most {@link ApiProtocol#MAX_MESSAGE}); {@code maxPayload} when the daemon does not
     *                         fragment
     * @param largeFrameLength version 3: the largest length field accepted, room for a SEND of {@code maxMessage}
     */
    record Limits(int maxPayload, int maxMessage, int largeFrameLength) {
        static Limits of(LocalNode node, ApiConfig config) {
            int maxPayload = Math.min(node.maxPayload(), ApiProtocol.payloadLimit(config.maxFrameLength()));
            int maxMessage = node.maxMessage() > node.maxPayload()
                    ? Math.min(node.maxMessage(), ApiProtocol.MAX_MESSAGE) : maxPayload;
            return new Limits(maxPayload, maxMessage, Math.max(config.maxFrameLength(),
                    ApiProtocol.SEND_OVERHEAD + maxMessage));
        }

        /** The largest message a connection of {@code version} is handed in a DELIVER; larger ones are dropped. */
        int deliverLimit(int version) {
            int classic = ApiProtocol.payloadLimit(ApiProtocol.MAX_INBOUND_FRAME_LENGTH);
            return version >= ApiProtocol.LARGE_MESSAGE_VERSION ? Math.max(classic, maxMessage) : classic;
        }
    }

    private final LocalNode node;
    private final ApiCounters counters;
    private final ApiConfig config;
    private final Limits limits;
    private final LargeFrameBudget.Account budget;
    private final PeerCredentialsLookup credentials;
    private final PrincipalQuotas quotas;
    /** Who is on the other end, once admitted. */
    private Principal principal;
    /** Requests read while the in-flight limit was reached, in arrival order. */
    private final Queue<ApiFrame> held = new ArrayDeque<>();
    private ChannelFutureListener replyWritten;
    private Subscription subscription;
    private RequestHandler requests;
    private ScheduledFuture<?> helloDeadline;
    private boolean admitted;
    private boolean greeted;
    private boolean closing;
    /** The protocol version of the HELLO; 0 before it. */
    private int version;
    /** The largest length field accepted now. */
    private int frameLimit;
    /** Reading stopped because the large frame budget cannot take the next frame yet. */
    private boolean budgetWait;
    /** Reading stopped because of the in-flight limit. */
    private boolean paused;
    private int inFlight;

    /**
     * @param limits      the sizes served by protocol version
     * @param budget      the connection's share of the large frame budget, which its large requests hold until
     *                    their replies are written
     * @param credentials finds the connection's principal when it connects
     * @param quotas      the server's quotas per principal
     */
    ApiConnection(LocalNode node, ApiCounters counters, ApiConfig config, Limits limits,
            LargeFrameBudget.Account budget, PeerCredentialsLookup credentials, PrincipalQuotas quotas) {
        this.node = node;
        this.counters = counters;
        this.config = config;
        this.limits = limits;
        this.budget = budget;
        this.frameLimit = config.maxFrameLength();
        this.credentials = credentials;
        this.quotas = quotas;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Principal peer = credentials.principal(ctx.channel());
        if (!quotas.openConnection(peer)) {
            counters.increment(ApiCounter.PRINCIPAL_CONNECTION_REFUSALS);
            LOG.debug("refusing API connection from {}: {} has {} connections open", ctx.channel().remoteAddress(),
                    peer, config.access().maxConnectionsPerPrincipal());
            close(ctx, 0, ApiException.Code.LIMIT_EXCEEDED, "user " + peer + " already has "
                    + config.access().maxConnectionsPerPrincipal() + " API connections open, the most one user may "
                    + "have (maxConnectionsPerPrincipal, the daemon's api-max-connections-per-uid)");
            ctx.fireChannelActive();
            return;
        }
        if (!counters.incrementIfBelow(ApiCounter.CONNECTIONS_OPEN, config.maxConnections())) {
            quotas.closeConnection(peer);
            counters.increment(ApiCounter.CONNECTIONS_REFUSED);
            LOG.debug("refusing API connection from {}: {} connections are open", ctx.channel().remoteAddress(),
                    config.maxConnections());
            close(ctx, 0, ApiException.Code.LIMIT_EXCEEDED, "the daemon serves at most " + config.maxConnections()
                    + " API connections at once");
            ctx.fireChannelActive();
            return;
        }
        admitted = true;
        principal = peer;
        counters.increment(ApiCounter.CONNECTIONS_ACCEPTED);
        subscription = new Subscription(ctx.channel(), counters);
        replyWritten = written -> replied(ctx);
        helloDeadline = ctx.executor().schedule(() -> helloTimedOut(ctx), config.helloTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (helloDeadline != null) {
            helloDeadline.cancel(false);
        }
        held.clear();
        if (admitted) {
            counters.decrement(ApiCounter.CONNECTIONS_OPEN);
        }
        if (subscription != null) {
            for (int group : subscription.removeAll()) {
                quotas.leaveGroup(principal);
                node.leave(group, subscription).exceptionally(failure -> {
                    LOG.warn("leaving group {} for a closed connection failed: {}", group, failure.toString());
                    return null;
                });
            }
        }
        if (admitted) {
            quotas.closeConnection(principal);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ApiFrame frame)) {
            // Cannot come from the pipeline in front; never let it become a ClassCastException.
            LOG.warn("ignoring a {} on API connection {}: not a frame", msg == null ? "null" : msg.getClass().getName(),
                    ctx.channel().remoteAddress());
            ReferenceCountUtil.release(msg);
            return;
        }
        if (closing) {
            return;
        }
        if (!held.isEmpty() || inFlight >= config.maxRequestsInFlight()) {
            held.add(frame);
            pause(ctx);
            return;
        }
        process(ctx, frame);
    }

    private void process(ChannelHandlerContext ctx, ApiFrame frame) {
        if (!(frame instanceof ApiRequest request)) {
            refuse(ctx, new MalformedFrameException(frame.requestId(), frame.type() + " is not a request"));
        } else if (request instanceof ApiRequest.Hello hello) {
            greet(ctx, hello);
        } else if (!greeted || requests == null) {
            refuse(ctx, new MalformedFrameException(request.requestId(), "HELLO must be the first frame, got "
                    + request.type()));
        } else if (request instanceof ApiRequest.Order && version < ApiProtocol.LARGE_MESSAGE_VERSION) {
            // Not in versions 1 and 2: refused as any type they do not know.
            refuse(ctx, new MalformedFrameException(request.requestId(), String.format("unknown frame type 0x%02x",
                    ApiFrameType.ORDER.wire())));
        } else {
            start(ctx, request);
        }
    }

    private void start(ChannelHandlerContext ctx, ApiRequest request) {
        inFlight++;
        counters.increment(ApiCounter.REQUESTS_IN_FLIGHT);
        counters.raise(ApiCounter.PEAK_REQUESTS_IN_FLIGHT, inFlight);
        if (inFlight >= config.maxRequestsInFlight()) {
            pause(ctx);
        }
        int held = largeFrameBytes(request);
        // Always via the I/O thread's queue: a reply then follows every push the node made before it.
        requests.handle(request).thenAcceptAsync(reply -> reply(ctx, reply, held), ctx.executor());
    }

    /** Bytes of the large frame budget {@code request} holds: its frame length, if above the configured one. */
    private int largeFrameBytes(ApiRequest request) {
        int length = ApiFrameCodec.encodedLength(request) - ApiProtocol.LENGTH_FIELD_LENGTH;
        return length > config.maxFrameLength() ? length : 0;
    }

    /**
     * Writes a request's reply, unless the connection is closing: then its ERROR was the last frame (docs/api.md,
     * "Bad input"), and a reply of a request that was in flight is dropped, still counted as finished. A large
     * request gives its bytes back to the budget once its reply is written.
     */
    private void reply(ChannelHandlerContext ctx, ApiReply reply, int held) {
        if (closing) {
            budget.release(held);
            replied(ctx);
            return;
        }
        if (held == 0) {
            ctx.writeAndFlush(reply).addListener(replyWritten);
        } else {
            ctx.writeAndFlush(reply).addListener(written -> {
                budget.release(held);
                replied(ctx);
            });
        }
    }

    /** A reply was written (or failed with the connection): start held requests, maybe read again. */
    private void replied(ChannelHandlerContext ctx) {
        inFlight--;
        counters.decrement(ApiCounter.REQUESTS_IN_FLIGHT);
        while (!closing && !held.isEmpty() && inFlight < config.maxRequestsInFlight()) {
            process(ctx, held.remove());
        }
        if (paused && held.isEmpty() && inFlight <= config.maxRequestsInFlight() / 2) {
            paused = false;
            updateAutoRead(ctx);
        }
    }

    private void pause(ChannelHandlerContext ctx) {
        if (!paused) {
            paused = true;
            counters.increment(ApiCounter.READS_PAUSED);
            updateAutoRead(ctx);
        }
    }

    private void updateAutoRead(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(!closing && !paused && !budgetWait && ctx.channel().isWritable());
    }

    private void greet(ChannelHandlerContext ctx, ApiRequest.Hello hello) {
        if (greeted) {
            refuse(ctx, new MalformedFrameException(hello.requestId(), "HELLO sent twice"));
        } else if (hello.version() < ApiProtocol.OLDEST_VERSION || hello.version() > ApiProtocol.VERSION) {
            counters.increment(ApiCounter.MALFORMED_FRAMES);
            close(ctx, hello.requestId(), ApiException.Code.UNSUPPORTED_VERSION, "protocol version "
                    + hello.version() + " is not supported; this daemon speaks versions " + ApiProtocol.OLDEST_VERSION
                    + " to " + ApiProtocol.VERSION);
        } else {
            greeted = true;
            if (helloDeadline != null) {
                helloDeadline.cancel(false);
            }
            version = hello.version();
            LOG.debug("client '{}' connected from {} (protocol version {})", hello.clientName(),
                    ctx.channel().remoteAddress(), version);
            // The connection speaks the client's version: to a version 1 client, drops are only counted (OVERFLOW).
            subscription.namesDrops(version >= 2);
            subscription.deliverLimit(limits.deliverLimit(version));
            boolean large = version >= ApiProtocol.LARGE_MESSAGE_VERSION;
            int maxSend = large ? limits.maxMessage() : limits.maxPayload();
            if (large) {
                // Frames of this connection that follow the HELLO may carry SENDs of the largest message.
                FrameSplitter splitter = ctx.pipeline().get(FrameSplitter.class);
                if (splitter != null) {
                    splitter.maxFrameLength(limits.largeFrameLength());
                    frameLimit = splitter.maxFrameLength();
                }
            }
            requests = new RequestHandler(node, counters, subscription, maxSend, config.maxGroupsPerConnection(),
                    new RequestHandler.Access(principal, quotas, config.access()));
            ctx.writeAndFlush(new ApiReply.HelloReply(hello.requestId(), version, node.nodeId(),
                    limits.maxPayload(), maxSend),
                    ctx.voidPromise());
        }
    }

    private void helloTimedOut(ChannelHandlerContext ctx) {
        if (!greeted && !closing && ctx.channel().isActive()) {
            counters.increment(ApiCounter.HELLO_TIMEOUTS);
            close(ctx, 0, ApiException.Code.MALFORMED_FRAME, "no HELLO within " + config.helloTimeout().toMillis()
                    + " ms of connecting");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        MalformedFrameException malformed = malformed(cause, frameLimit);
        if (malformed != null) {
            refuse(ctx, malformed);
        } else if (cause instanceof IOException) {
            ctx.close();
        } else {
            LOG.warn("closing API connection {} after an internal error: {}", ctx.channel().remoteAddress(),
                    cause.toString());
            close(ctx, 0, ApiException.Code.INTERNAL, "internal error: " + cause);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead(ctx);
        if (ctx.channel().isWritable() && subscription != null) {
            subscription.writable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close();
        } else if (evt instanceof FrameSplitter.BudgetWait wait) {
            budgetWait = wait.waiting();
            updateAutoRead(ctx);
        } else if (evt instanceof FrameSplitter.PartialFrameTimeout timeout && !closing) {
            counters.increment(ApiCounter.PARTIAL_FRAME_TIMEOUTS);
            close(ctx, 0, ApiException.Code.MALFORMED_FRAME, "frame incomplete: " + timeout.bytesReceived()
                    + " bytes of it received, the rest did not come within " + timeout.timeoutMs() + " ms");
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void refuse(ChannelHandlerContext ctx, MalformedFrameException malformed) {
        counters.increment(ApiCounter.MALFORMED_FRAMES);
        close(ctx, malformed.requestId(), ApiException.Code.MALFORMED_FRAME, malformed.getMessage());
    }

    /** Sends one ERROR frame, then closes: at once when it is written, or after a grace period at most. */
    private void close(ChannelHandlerContext ctx, int requestId, ApiException.Code code, String message) {
        closing = true;
        held.clear();
        updateAutoRead(ctx);
        ctx.writeAndFlush(new ApiReply.Error(requestId, code, message)).addListener(ChannelFutureListener.CLOSE);
        ScheduledFuture<?> deadline = ctx.executor().schedule(() -> ctx.close(), CLOSE_GRACE_MS, TimeUnit.MILLISECONDS);
        ctx.channel().closeFuture().addListener(closed -> deadline.cancel(false));
    }

    /** The malformed-input verdict inside a decoder failure, or null for any other failure. */
    private static MalformedFrameException malformed(Throwable cause, int maxFrameLength) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof MalformedFrameException m) {
                return m;
            }
            if (t instanceof TooLongFrameException) {
                return new MalformedFrameException(0, "frame length above the limit of " + maxFrameLength + " bytes");
            }
            if (t instanceof CorruptedFrameException) {
                return new MalformedFrameException(0, "corrupt frame: " + t.getMessage());
            }
        }
        return null;
    }
}
