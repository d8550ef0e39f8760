package io.ricochet.fd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.auth.BadTagLog;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.support.RateLimitedLog;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeartbeatFlyweight;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The detector's receive path. Every datagram is opened first: its trailer checked, then its counter against the
 * process's replay window (refusals counted as {@link FdCounter#UNAUTHENTIC}, {@link FdCounter#REPLAYED} or
 * {@link FdCounter#STALE}). Then it passes {@link FrameValidator}; a rejected one is counted
 * ({@link FdCounter#MALFORMED}) and dropped, unanswered. A HEARTBEAT is answered with its HEARTBEAT_ACK (so the
 * detector itself can be watched); a HEARTBEAT_ACK goes to the {@link AckSink}; any other valid frame is counted
 * and dropped. No exception leaves this handler: whatever reaches {@link #exceptionCaught} is counted and logged.
 */
final class HeartbeatHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatHandler.class);

    private final int wireId;
    private final FdCounters counters;
    private final FrameSender sender;
    private final AckSink acks;
    private final FrameGuard guard;
    private final DetectorAddresses watchedBy;
    private final RateLimitedLog unlistedLog = new RateLimitedLog(LOG, TimeUnit.MINUTES.toNanos(1));
    private final RateLimitedLog misdirectedLog = new RateLimitedLog(LOG, TimeUnit.MINUTES.toNanos(1));
    private final byte[] rx = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
    private final byte[] tx = new byte[HeartbeatFlyweight.LENGTH];
    private final HeartbeatFlyweight frame = new HeartbeatFlyweight();
    private boolean flushPending;
    /** Bad tags said at WARN, per source address, at most once a minute (on the socket's thread). */
    private final BadTagLog badTags;

    /**
     * @param wireId the source of this detector's acks
     */
    HeartbeatHandler(int wireId, FdCounters counters, FrameSender sender, AckSink acks, FrameGuard guard) {
        this(wireId, counters, sender, acks, guard, DetectorAddresses.NONE);
    }

    /**
     * @param watchedBy the detectors that may ping this one, each answered only at its listed address, or
     *                  {@link DetectorAddresses#NONE}: every heartbeat answered at its source address
     */
    HeartbeatHandler(int wireId, FdCounters counters, FrameSender sender, AckSink acks, FrameGuard guard,
                     DetectorAddresses watchedBy) {
        this.watchedBy = watchedBy;
        this.wireId = wireId;
        this.guard = guard;
        this.counters = counters;
        this.sender = sender;
        this.acks = acks;
        this.badTags = new BadTagLog(LOG, "detector " + wireId, System::nanoTime);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        counters.increment(FdCounter.DATAGRAMS_RECEIVED);
        ByteBuf content = packet.content();
        int length = content.readableBytes();
        if (length > rx.length) {
            malformed(packet, "longer than any frame");
            return;
        }
        content.getBytes(content.readerIndex(), rx, 0, length);
        length = guard.open(rx, 0, length);
        if (length < 0) {
            counters.increment(length == DatagramAuth.REPLAYED ? FdCounter.REPLAYED
                    : length == DatagramAuth.STALE ? FdCounter.STALE : FdCounter.UNAUTHENTIC);
            LOG.debug("dropped a datagram from {}: {}", packet.sender(), DatagramAuth.reason(length));
            if (length == DatagramAuth.BAD_TAG) {
                badTags.onBadTag(packet.sender());
            }
            return;
        }
        FrameValidator.Verdict verdict = FrameValidator.check(rx, 0, length);
        if (verdict != FrameValidator.Verdict.OK) {
            malformed(packet, verdict.name());
            return;
        }
        frame.wrap(rx, 0);
        switch (frame.type()) {
            case FrameType.HEARTBEAT:
                InetSocketAddress to = ackAddress(frame.source(), packet.sender());
                if (to == null) {
                    break;
                }
                int ackLength = HeartbeatFlyweight.ackInto(rx, 0, length, wireId, tx, 0);
                sender.write(ctx.channel(), tx, ackLength, to, frame.source());
                flushPending = true;
                counters.increment(FdCounter.HEARTBEATS_ANSWERED);
                break;
            case FrameType.HEARTBEAT_ACK:
                acks.onAck(frame.source(), frame.sequence(), frame.sendTimeNs());
                break;
            default:
                counters.increment(FdCounter.UNEXPECTED_FRAMES);
                break;
        }
    }

    /**
     * Where the ACK of detector {@code pinger}'s heartbeat from {@code from} goes ({@link DetectorAddresses#route}):
     * null (counted) when detectors are listed but not this one.
     */
    private InetSocketAddress ackAddress(int pinger, InetSocketAddress from) {
        DetectorAddresses.Route route = watchedBy.route(pinger, from);
        if (route == DetectorAddresses.Route.UNLISTED) {
            counters.increment(FdCounter.HEARTBEATS_UNLISTED);
            unlistedLog.warn("detector {}: a heartbeat of the detector with wire id {} (from {}) left unanswered: "
                    + "--watched-by does not list it", wireId, pinger, from);
        } else if (route == DetectorAddresses.Route.REDIRECTED) {
            counters.increment(FdCounter.HEARTBEATS_MISDIRECTED);
            misdirectedLog.warn("detector {}: a heartbeat of detector {} came from {}, not its address in "
                    + "--watched-by: answered at {}", wireId, watchedBy.name(pinger), from, watchedBy.address(pinger));
        }
        return watchedBy.ackAddress(route, pinger, from);
    }

    private void malformed(DatagramPacket packet, String why) {
        counters.increment(FdCounter.MALFORMED);
        LOG.debug("dropped a malformed datagram of {} bytes from {}: {}",
                packet.content().readableBytes(), packet.sender(), why);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.increment(FdCounter.HANDLER_ERRORS);
        LOG.warn("error on the detector socket (datagram dropped, detector keeps running)", cause);
    }
}
