package io.ricochet.api.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.MalformedFrameException;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Cuts the byte stream into frames at their u32 length prefix, which it strips. A length above the limit fails
 * at once (fail-fast, before the frame's bytes arrive), and input that ends inside a frame is reported as malformed
 * instead of being silently dropped.
 *
 * <p>It also watches for a frame that starts but never ends: when some bytes of a frame have arrived and the frame
 * is still incomplete after the partial-frame timeout, with no whole frame received meanwhile, it fires a
 * {@link PartialFrameTimeout} event, which {@link ApiConnection} answers by closing the connection. A connection
 * with no partial frame is never timed out, and neither is one the daemon itself stopped reading (backpressure).
 */
final class FrameSplitter extends LengthFieldBasedFrameDecoder {
    /** The event fired when a partial frame stayed incomplete for {@code timeoutMs}. */
    record PartialFrameTimeout(int bytesReceived, long timeoutMs) {
    }

    private final long timeoutNanos;
    /** When the connection started waiting for the rest of the current partial frame; valid while waiting. */
    private long waitingSince;
    private boolean waiting;
    private long framesDecoded;
    private long framesWhenWaitingStarted;
    private ScheduledFuture<?> check;

    /**
     * @param maxFrameLength the largest length field accepted
     * @param partialFrameTimeoutMs how long a started frame may stay incomplete
     */
    FrameSplitter(int maxFrameLength, long partialFrameTimeoutMs) {
        super(maxFrameLength + ApiProtocol.LENGTH_FIELD_LENGTH, 0, ApiProtocol.LENGTH_FIELD_LENGTH, 0,
                ApiProtocol.LENGTH_FIELD_LENGTH, true);
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(partialFrameTimeoutMs);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        Object frame = super.decode(ctx, in);
        if (frame != null) {
            framesDecoded++;
        }
        return frame;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        watch(ctx);
    }

    /** After a read: start, restart (a frame completed) or stop the wait for the rest of a partial frame. */
    private void watch(ChannelHandlerContext ctx) {
        if (actualReadableBytes() == 0) {
            waiting = false;
            return;
        }
        if (!waiting || framesDecoded != framesWhenWaitingStarted) {
            waiting = true;
            waitingSince = System.nanoTime();
            framesWhenWaitingStarted = framesDecoded;
        }
        if (check == null) {
            schedule(ctx, timeoutNanos);
        }
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> check(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void check(ChannelHandlerContext ctx) {
        check = null;
        if (!waiting || !ctx.channel().isActive() || actualReadableBytes() == 0) {
            return;
        }
        long now = System.nanoTime();
        if (!ctx.channel().config().isAutoRead()) {
            waitingSince = now; // the daemon is not reading: the client is not the one to blame
            schedule(ctx, timeoutNanos);
            return;
        }
        long waited = now - waitingSince;
        if (waited < timeoutNanos) {
            schedule(ctx, timeoutNanos - waited);
            return;
        }
        waiting = false;
        ctx.fireUserEventTriggered(new PartialFrameTimeout(actualReadableBytes(),
                TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        waiting = false;
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        super.channelInactive(ctx);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            int pending = in.readableBytes();
            in.skipBytes(pending);
            throw new MalformedFrameException(0, "input ended inside a frame (" + pending + " bytes of it received)");
        }
    }
}
