package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.AttributeKey;
import io.ricochet.control.ControlMessage;
import io.ricochet.control.ControlPipeline;
import io.ricochet.control.DetectorFailed;
import io.ricochet.control.DetectorRecovered;
import io.ricochet.control.ErrorCode;
import io.ricochet.control.ErrorReply;
import io.ricochet.control.Join;
import io.ricochet.control.Leave;
import io.ricochet.control.MessageType;
import io.ricochet.control.NodeFailed;
import io.ricochet.control.NodeRecovered;
import io.ricochet.control.Register;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of every GMS connection: hands each message to its role ({@link DaemonRequests} or
 * {@link DetectorReports}) and answers a refusal with ERROR. A malformed or oversized frame gets ERROR
 * (MALFORMED_FRAME) and the connection is closed; nothing else is affected. A connection that closes changes no
 * membership. Shared by all connections; runs on the partition's single event loop.
 */
@Sharable
final class GmsSessionHandler extends SimpleChannelInboundHandler<ControlMessage> {
    private static final Logger LOG = LoggerFactory.getLogger(GmsSessionHandler.class);
    private static final AttributeKey<Boolean> CLOSING = AttributeKey.valueOf("ricochet.gms.closing");

    private final DaemonRequests daemons;
    private final DetectorReports detectors;
    private final SessionTable sessions;
    private final GmsCounters counters;

    GmsSessionHandler(DaemonRequests daemons, DetectorReports detectors, SessionTable sessions, GmsCounters counters) {
        this.daemons = daemons;
        this.detectors = detectors;
        this.sessions = sessions;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counters.increment(GmsCounter.CONNECTIONS);
        LOG.debug("connection from {}", ctx.channel().remoteAddress());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        sessions.unbind(ctx.channel());
        LOG.debug("connection from {} closed", ctx.channel().remoteAddress());
        ctx.fireChannelInactive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ControlMessage message) {
        Channel channel = ctx.channel();
        if (channel.hasAttr(CLOSING)) {
            return;
        }
        try {
            dispatch(channel, message);
        } catch (GmsRefusal refusal) {
            LOG.debug("refused {} from {}: {}", message, channel.remoteAddress(), refusal.getMessage());
            reply(channel, new ErrorReply(refusal.code(), refusal.getMessage()));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Channel channel = ctx.channel();
        if (channel.attr(CLOSING).setIfAbsent(Boolean.TRUE) != null) {
            return;
        }
        if (ControlPipeline.isMalformedInput(cause)) {
            String problem = ControlPipeline.describe(cause);
            counters.increment(GmsCounter.MALFORMED_FRAMES);
            LOG.warn("malformed frame from {}: {}; closing that connection", channel.remoteAddress(), problem);
            reply(channel, ErrorReply.truncating(ErrorCode.MALFORMED_FRAME, "malformed frame: " + problem))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            LOG.debug("connection from {} failed: {}", channel.remoteAddress(), cause.toString());
            channel.close();
        }
    }

    private void dispatch(Channel channel, ControlMessage message) throws GmsRefusal {
        if (message instanceof Register m) {
            daemons.onRegister(channel, m);
        } else if (message instanceof Join m) {
            daemons.onJoin(channel, m);
        } else if (message instanceof Leave m) {
            daemons.onLeave(channel, m);
        } else if (message instanceof NodeFailed m) {
            detectors.onNodeFailed(m);
        } else if (message instanceof NodeRecovered m) {
            detectors.onNodeRecovered(m);
        } else if (message instanceof DetectorFailed m) {
            detectors.onDetectorFailed(m);
        } else if (message instanceof DetectorRecovered m) {
            detectors.onDetectorRecovered(m);
        } else {
            throw new GmsRefusal(ErrorCode.UNEXPECTED_MESSAGE, "the GMS does not accept "
                    + MessageType.name(message.type()));
        }
    }

    private ChannelFuture reply(Channel channel, ErrorReply error) {
        counters.increment(GmsCounter.ERRORS_SENT);
        return channel.writeAndFlush(error);
    }
}
