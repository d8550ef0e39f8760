package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.AttributeKey;
import io.ricochet.control.codec.ControlPipeline;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Watch;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.support.RateLimitedLog;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of every GMS connection: greets it ({@link Greeter}), then hands each message to its role
 * ({@link DaemonRequests} or {@link DetectorReports}) and answers a refusal with ERROR. A malformed or oversized
 * frame gets ERROR (MALFORMED_FRAME) and the connection is closed; nothing else is affected. A connection that
 * closes changes no membership. Messages of a session that was redirected are ignored. Shared by all connections
 * of a partition; runs on the replica's event loop.
 *
 * <p>With TLS on, each message must be allowed by the role in the sender's certificate ({@link PeerIdentity}):
 * REGISTER, JOIN and LEAVE only from a daemon, and REGISTER only for the node its certificate names;
 * NODE_FAILED, NODE_RECOVERED, DETECTOR_FAILED and DETECTOR_RECOVERED only from a failure detector. Anything else
 * is answered with ERROR (NOT_AUTHORIZED), counted ({@link GmsCounter#ROLE_REFUSED}) and changes nothing; the
 * connection stays open.
 *
 * <p>Messages pass through the partition's {@link SessionPacer} first: a session with too many requests in the Raft
 * log is no longer read, and what it sent already waits its turn.
 */
@Sharable
final class GmsSessionHandler extends SimpleChannelInboundHandler<ControlMessage> {
    /** Writes a new session's first message: SERVING if this replica leads the partition, else REDIRECT. */
    interface Greeter {
        void greet(Channel channel);
    }

    private static final Logger LOG = LoggerFactory.getLogger(GmsSessionHandler.class);
    private static final AttributeKey<Boolean> CLOSING = AttributeKey.valueOf("ricochet.gms.closing");
    private static final long REFUSAL_WARN_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);

    private final DaemonRequests daemons;
    private final DetectorReports detectors;
    private final SessionTable sessions;
    private final GmsCounters counters;
    private final boolean checkRoles;
    private final Greeter greeter;
    private final SessionPacer pacer;
    private final RateLimitedLog refusals = new RateLimitedLog(LOG, REFUSAL_WARN_INTERVAL_NS);

    /**
     * @param checkRoles whether each message must be allowed by the sender's certificate (TLS on); without TLS
     *                   there is no certificate and every message is taken
     */
    GmsSessionHandler(DaemonRequests daemons, DetectorReports detectors, SessionTable sessions, GmsCounters counters,
                      boolean checkRoles, Greeter greeter) {
        this(daemons, detectors, sessions, counters, checkRoles, greeter,
                new SessionPacer(FrontDoorSettings.MAX_REQUESTS_IN_FLIGHT, counters));
    }

    /** @param pacer holds back the messages of a session with too many requests in the Raft log */
    GmsSessionHandler(DaemonRequests daemons, DetectorReports detectors, SessionTable sessions, GmsCounters counters,
                      boolean checkRoles, Greeter greeter, SessionPacer pacer) {
        this.pacer = pacer;
        this.daemons = daemons;
        this.detectors = detectors;
        this.sessions = sessions;
        this.counters = counters;
        this.checkRoles = checkRoles;
        this.greeter = greeter;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counters.increment(GmsCounter.CONNECTIONS);
        LOG.debug("connection from {}", ctx.channel().remoteAddress());
        greeter.greet(ctx.channel());
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
        pacer.offer(ctx.channel(), message, this::handle);
    }

    /** Takes {@code message}, which the pacer let through now or after it waited. */
    private void handle(Channel channel, ControlMessage message) {
        if (channel.hasAttr(CLOSING) || sessions.sessionOf(channel) == null) {
            return;   // closing, or redirected to the leader and about to close: nothing it sends is taken
        }
        try {
            if (checkRoles) {
                authorize(PeerIdentity.of(channel), message);
            }
            dispatch(channel, message);
        } catch (GmsRefusal refusal) {
            if (refusal.code() == ErrorCode.NOT_AUTHORIZED) {
                counters.increment(GmsCounter.ROLE_REFUSED);
                refusals.warn("refused {} from {}: {}", MessageType.name(message.type()), channel.remoteAddress(),
                        refusal.getMessage());
            }
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

    /** Refuses {@code message} unless the role (and for REGISTER the node) in {@code peer}'s certificate allows it. */
    static void authorize(PeerIdentity peer, ControlMessage message) throws GmsRefusal {
        String what = MessageType.name(message.type());
        if (peer == null) {
            throw new GmsRefusal(ErrorCode.NOT_AUTHORIZED, what + " from a connection without a certificate");
        }
        if (message instanceof Register || message instanceof Join || message instanceof Leave) {
            if (peer.role() != PeerIdentity.Role.DAEMON) {
                throw new GmsRefusal(ErrorCode.NOT_AUTHORIZED, "only daemons may send " + what + "; this "
                        + "certificate is for " + peer);
            }
            if (message instanceof Register register) {
                OptionalInt own = peer.nodeId();
                if (own.isEmpty() || own.getAsInt() != register.nodeId()) {
                    throw new GmsRefusal(ErrorCode.NOT_AUTHORIZED, "REGISTER as node " + register.nodeId()
                            + " with a certificate for " + peer + ": a daemon may register only as "
                            + "its own node");
                }
            }
        } else if (message instanceof NodeFailed || message instanceof NodeRecovered
                || message instanceof DetectorFailed || message instanceof DetectorRecovered
                || message instanceof Watch) {
            if (peer.role() != PeerIdentity.Role.DETECTOR) {
                throw new GmsRefusal(ErrorCode.NOT_AUTHORIZED, "only failure detectors may report " + what
                        + "; this certificate is for " + peer);
            }
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
            detectors.onNodeFailed(channel, m);
        } else if (message instanceof NodeRecovered m) {
            detectors.onNodeRecovered(channel, m);
        } else if (message instanceof DetectorFailed m) {
            detectors.onDetectorFailed(channel, m);
        } else if (message instanceof Watch m) {
            detectors.onWatch(channel, m);
        } else if (message instanceof DetectorRecovered m) {
            detectors.onDetectorRecovered(channel, m);
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
