package io.ricochet.api.server;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import io.ricochet.api.ApiException;
import io.ricochet.api.LocalNode;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.api.protocol.MalformedFrameException;
import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a client connection: enforces HELLO first, hands requests to a {@link RequestHandler} and
 * writes their replies, and ends the connection on bad input with one ERROR frame. Peer input never escapes as an
 * exception. Also applies backpressure to requests: while the write buffer is above its high water mark the
 * connection stops reading, so a client that sends requests but reads no replies cannot grow daemon memory.
 */
final class ApiConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ApiConnection.class);
    /** How long a refused connection may take to read its ERROR frame before it is closed anyway. */
    private static final long CLOSE_GRACE_MS = 5_000;

    private final LocalNode node;
    private final ApiCounters counters;
    private final int maxFrameLength;
    private final int maxPayload;
    private Subscription subscription;
    private RequestHandler requests;
    private boolean greeted;
    private boolean closing;

    /**
     * @param maxFrameLength the configured frame limit, for error messages
     * @param maxPayload     the largest payload a SEND may carry
     */
    ApiConnection(LocalNode node, ApiCounters counters, int maxFrameLength, int maxPayload) {
        this.node = node;
        this.counters = counters;
        this.maxFrameLength = maxFrameLength;
        this.maxPayload = maxPayload;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counters.increment(ApiCounter.CONNECTIONS_ACCEPTED);
        counters.increment(ApiCounter.CONNECTIONS_OPEN);
        subscription = new Subscription(ctx.channel(), counters);
        requests = new RequestHandler(node, counters, subscription, maxPayload);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        counters.decrement(ApiCounter.CONNECTIONS_OPEN);
        for (int group : subscription.removeAll()) {
            node.leave(group, subscription).exceptionally(failure -> {
                LOG.warn("leaving group {} for a closed connection failed: {}", group, failure.toString());
                return null;
            });
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ApiFrame frame = (ApiFrame) msg;
        if (closing) {
            return;
        }
        if (!(frame instanceof ApiRequest request)) {
            refuse(ctx, new MalformedFrameException(frame.requestId(), frame.type() + " is not a request"));
        } else if (request instanceof ApiRequest.Hello hello) {
            greet(ctx, hello);
        } else if (!greeted) {
            refuse(ctx, new MalformedFrameException(request.requestId(), "HELLO must be the first frame, got "
                    + request.type()));
        } else {
            // Always via the I/O thread's queue: a reply then follows every push the node made before it.
            requests.handle(request).thenAcceptAsync(reply -> ctx.writeAndFlush(reply, ctx.voidPromise()),
                    ctx.executor());
        }
    }

    private void greet(ChannelHandlerContext ctx, ApiRequest.Hello hello) {
        if (greeted) {
            refuse(ctx, new MalformedFrameException(hello.requestId(), "HELLO sent twice"));
        } else if (hello.version() != ApiProtocol.VERSION) {
            counters.increment(ApiCounter.MALFORMED_FRAMES);
            close(ctx, hello.requestId(), ApiException.Code.UNSUPPORTED_VERSION, "protocol version "
                    + hello.version() + " is not supported; this daemon speaks version " + ApiProtocol.VERSION);
        } else {
            greeted = true;
            LOG.debug("client '{}' connected from {}", hello.clientName(), ctx.channel().remoteAddress());
            ctx.writeAndFlush(new ApiReply.HelloReply(hello.requestId(), ApiProtocol.VERSION, node.nodeId(),
                    maxPayload), ctx.voidPromise());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closing) {
            return;
        }
        MalformedFrameException malformed = malformed(cause, maxFrameLength);
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
        boolean writable = ctx.channel().isWritable();
        ctx.channel().config().setAutoRead(writable && !closing);
        if (writable) {
            subscription.writable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close();
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
        ctx.channel().config().setAutoRead(false);
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
