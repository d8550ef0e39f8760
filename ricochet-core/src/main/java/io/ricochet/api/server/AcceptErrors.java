package io.ricochet.api.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.ricochet.support.RateLimitedLog;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening channel's handler for failed accepts, placed before Netty's acceptor. When {@code accept()} fails,
 * typically with EMFILE (the process is out of file descriptors), the pending connection stays in the kernel's
 * backlog and the listening socket stays readable, so retrying at once would spin. This handler counts the failure
 * in {@link ApiCounter#ACCEPT_ERRORS}, logs a WARN at most once per {@link #LOG_INTERVAL_MS} (with how many failures
 * it logged at DEBUG only), and stops accepting for {@link #RETRY_MS} before trying again. Connections already open are
 * served meanwhile. Other failures go on to Netty's acceptor as before.
 *
 * <p>Nothing here may load a class while descriptors are short: the retry task is created up front.
 */
final class AcceptErrors extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(AcceptErrors.class);
    /** How long accepting pauses after a failed accept. */
    static final long RETRY_MS = 1_000;
    /** Least time between two WARN lines about failed accepts. */
    static final long LOG_INTERVAL_MS = 60_000;

    private final ApiCounters counters;
    private final RateLimitedLog log = new RateLimitedLog(LOG, TimeUnit.MILLISECONDS.toNanos(LOG_INTERVAL_MS));
    private Runnable resume;

    AcceptErrors(ApiCounters counters) {
        this.counters = counters;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        resume = new Resume(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        counters.increment(ApiCounter.ACCEPT_ERRORS);
        log(cause);
        if (ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(resume, RETRY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void log(Throwable cause) {
        log.warn("the API server cannot accept a connection ({}); pausing accepts for {} ms, existing connections "
                + "are still served", cause.toString(), RETRY_MS);
    }

    /** Accepts again. Created when the handler is added, not when descriptors have run out. */
    private static final class Resume implements Runnable {
        private final ChannelHandlerContext ctx;

        Resume(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void run() {
            if (ctx.channel().isOpen()) {
                ctx.channel().config().setAutoRead(true);
            }
        }
    }
}
