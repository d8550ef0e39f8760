package io.ricochet.api.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
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
 * <p>The limit starts at the configured frame length; a connection that says HELLO with protocol version 3 raises it
 * ({@link #maxFrameLength(int)}) to carry SENDs of the daemon's largest message. A frame above the configured length
 * (a large one) is read only once the daemon-wide {@link LargeFrameBudget} has reserved its whole length: until then
 * the splitter fires {@link BudgetWait}, on which {@link ApiConnection} stops reading the connection, and it tries
 * again when the budget has room. The reservation passes with the frame to the request, whose reply gives it back.
 *
 * <p>It also watches for a frame that starts but never ends: when some bytes of a frame have arrived and the frame
 * is still incomplete after the partial-frame timeout, with no whole frame received meanwhile, it fires a
 * {@link PartialFrameTimeout} event, which {@link ApiConnection} answers by closing the connection. A connection
 * with no partial frame is never timed out, and neither is one the daemon itself stopped reading (backpressure,
 * or the large frame budget).
 */
final class FrameSplitter extends ByteToMessageDecoder {
    /** The event fired when a partial frame stayed incomplete for {@code timeoutMs}. */
    record PartialFrameTimeout(int bytesReceived, long timeoutMs) {
    }

    /**
     * The event fired when the connection must stop being read ({@code waiting}) because the large frame budget
     * cannot take its next frame yet, and when it may be read again.
     */
    record BudgetWait(boolean waiting) {
    }

    private final long timeoutNanos;
    /** Frames above this length are large: they need the budget. */
    private final int classicLimit;
    private final LargeFrameBudget.Account budget;
    private int maxFrameLength;
    /** The frame at the reader index has its budget reserved. */
    private boolean reserved;
    private boolean waitingForBudget;
    /** The connection is gone: nothing more is reserved. */
    private boolean closed;
    /** A length above the limit was seen: everything after it is discarded (the connection is being closed). */
    private boolean discarding;
    private Runnable wakeUp;
    /** When the connection started waiting for the rest of the current partial frame; valid while waiting. */
    private long waitingSince;
    private boolean waiting;
    private long framesDecoded;
    private long framesWhenWaitingStarted;
    private ScheduledFuture<?> check;

    /**
     * A splitter that never raises its limit (no large frames).
     *
     * @param maxFrameLength the largest length field accepted
     * @param partialFrameTimeoutMs how long a started frame may stay incomplete
     */
    FrameSplitter(int maxFrameLength, long partialFrameTimeoutMs) {
        this(maxFrameLength, partialFrameTimeoutMs, null);
    }

    /**
     * @param maxFrameLength        the largest length field accepted until {@link #maxFrameLength(int)} raises it;
     *                              longer frames are large
     * @param partialFrameTimeoutMs how long a started frame may stay incomplete
     * @param budget                the connection's share of the large frame budget, or null if it has none
     */
    FrameSplitter(int maxFrameLength, long partialFrameTimeoutMs, LargeFrameBudget.Account budget) {
        this.classicLimit = maxFrameLength;
        this.maxFrameLength = maxFrameLength;
        this.budget = budget;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(partialFrameTimeoutMs);
    }

    /** Raises the largest length field accepted from now on (after a version 3 HELLO); never lowers it. */
    void maxFrameLength(int limit) {
        if (budget == null && limit > classicLimit) {
            throw new IllegalStateException("large frames need a budget");
        }
        maxFrameLength = Math.max(maxFrameLength, limit);
    }

    /** The largest length field accepted now. */
    int maxFrameLength() {
        return maxFrameLength;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        wakeUp = () -> ctx.executor().execute(() -> budgetFreed(ctx));
        super.handlerAdded(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (discarding) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (waitingForBudget || in.readableBytes() < ApiProtocol.LENGTH_FIELD_LENGTH) {
            return;
        }
        long length = in.getUnsignedInt(in.readerIndex());
        if (length > maxFrameLength) {
            discarding = true;
            in.skipBytes(in.readableBytes());
            throw new TooLongFrameException("frame length " + length + " exceeds " + maxFrameLength);
        }
        int frameLength = (int) length;
        if (frameLength > classicLimit && !reserved) {
            if (closed) {
                return;
            }
            if (!budget.tryReserve(frameLength, wakeUp)) {
                waitingForBudget = true;
                ctx.fireUserEventTriggered(new BudgetWait(true));
                return;
            }
            reserved = true;
        }
        if (in.readableBytes() < ApiProtocol.LENGTH_FIELD_LENGTH + frameLength) {
            return;
        }
        in.skipBytes(ApiProtocol.LENGTH_FIELD_LENGTH);
        out.add(in.readRetainedSlice(frameLength));
        reserved = false; // the request holds it now (ApiConnection gives it back with the reply)
        framesDecoded++;
    }

    /** On the connection's loop, once the budget had bytes given back: read the waiting frame again. */
    private void budgetFreed(ChannelHandlerContext ctx) {
        if (!waitingForBudget || ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        waitingForBudget = false;
        try {
            channelRead(ctx, Unpooled.EMPTY_BUFFER); // decodes again what is buffered
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
            return;
        }
        if (!waitingForBudget) {
            ctx.fireUserEventTriggered(new BudgetWait(false));
        }
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
        if (!ctx.channel().config().isAutoRead() || waitingForBudget) {
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
        stop();
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    /** The connection is gone: no more checks, and everything it held of the budget is given back. */
    private void stop() {
        closed = true;
        waiting = false;
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        if (budget != null) {
            budget.close(wakeUp);
        }
        waitingForBudget = false;
        reserved = false;
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
