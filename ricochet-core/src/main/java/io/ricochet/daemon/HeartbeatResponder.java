package io.ricochet.daemon;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.auth.Authentication;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.HeartbeatFlyweight;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the rack failure detector's heartbeats on a socket and a thread of their own, so a daemon whose engine
 * thread is busy (a burst, a long batch, a starved CPU) is not declared failed because its answers queue behind
 * data (docs/design/failure-detection.md). It still tells a wedged daemon from a live one: the engine thread marks
 * its progress ({@link #engineAlive}) every few hundred milliseconds, and a heartbeat arriving after
 * {@code stallNs} without progress goes unanswered (counted), so the detector sees the failure.
 */
final class HeartbeatResponder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatResponder.class);

    private final int self;
    private final long stallNs;
    private final LongSupplier clock;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong withheld = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private volatile long progressNs;
    /** Opens heartbeats and seals acks: used only by the heartbeat thread (and tests calling {@link #answer}). */
    private final FrameGuard guard;
    private EventLoopGroup group;
    private Channel channel;

    /**
     * @param self    this daemon's node id, the source of its acks
     * @param stallNs how long the engine may show no progress before heartbeats go unanswered
     * @param clock   the time source, in nanoseconds
     * @param auth    how heartbeats and acks are authenticated
     */
    HeartbeatResponder(int self, long stallNs, LongSupplier clock, Authentication auth) {
        this.self = self;
        this.stallNs = stallNs;
        this.clock = clock;
        this.guard = auth.newGuard(self);
        this.progressNs = clock.getAsLong();
    }

    /** Binds {@code address} on the responder's own thread; a failure is one line that names the setting. */
    void start(InetSocketAddress address) throws InterruptedException {
        group = new NioEventLoopGroup(1, new DefaultThreadFactory("ricochet-heartbeat", true));
        ChannelFuture bound = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new Handler()).bind(address).await();
        if (!bound.isSuccess()) {
            close();
            throw BindFailure.of("the heartbeat socket", address, "address, heartbeat-port", bound.cause());
        }
        channel = bound.channel();
        LOG.info("answering failure-detector heartbeats on {}", address);
    }

    /** Called on the engine's thread: it is making progress now. */
    void engineAlive() {
        progressNs = clock.getAsLong();
    }

    /**
     * Decides one datagram: the sealed ACK's length if it is an authentic, fresh, valid HEARTBEAT to answer (the ACK
     * written into {@code ack}, which has room for the trailer), else 0 (counted: unauthentic or malformed, replayed,
     * stale, or withheld because the engine stalled).
     */
    int answer(byte[] datagram, int datagramLength, byte[] ack) {
        int length = guard.open(datagram, 0, datagramLength);
        if (length == DatagramAuth.REPLAYED || length == DatagramAuth.STALE) {
            // Authentic but seen before, or too old: a replayed heartbeat gets no answer.
            (length == DatagramAuth.REPLAYED ? replayed : stale).incrementAndGet();
            return 0;
        }
        byte[] frame = datagram;
        if (length < HeaderFlyweight.HEADER_LENGTH || frame[HeaderFlyweight.TYPE_OFFSET] != FrameType.HEARTBEAT) {
            refused.incrementAndGet();
            return 0;
        }
        int ackLength = HeartbeatFlyweight.ackInto(frame, 0, length, self, ack, 0);
        if (ackLength == 0) {
            refused.incrementAndGet();
            return 0;
        }
        if (clock.getAsLong() - progressNs > stallNs) {
            withheld.incrementAndGet();
            return 0;
        }
        answered.incrementAndGet();
        // Bound to the detector that sent the heartbeat (its wire id is the heartbeat's source).
        return guard.seal(ack, 0, ackLength, Bytes.getInt(frame, HeaderFlyweight.SOURCE_OFFSET));
    }

    /**
     * Heartbeats answered, withheld (engine stalled), refused (not a valid HEARTBEAT), replayed and stale (authentic,
     * but taken before or sent too far from this host's clock), since the start.
     */
    long[] counts() {
        return new long[] {answered.get(), withheld.get(), refused.get(), replayed.get(), stale.get()};
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().awaitUninterruptibly();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<DatagramPacket> {
        private final byte[] rx = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
        private final byte[] tx = new byte[HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH];

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            ByteBuf content = packet.content();
            int length = content.readableBytes();
            if (length > rx.length) {
                refused.incrementAndGet();
                return;
            }
            content.getBytes(content.readerIndex(), rx, 0, length);
            int ackLength = answer(rx, length, tx);
            if (ackLength > 0) {
                ctx.writeAndFlush(new DatagramPacket(ctx.alloc().buffer(ackLength).writeBytes(tx, 0, ackLength),
                        packet.sender()), ctx.voidPromise());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("heartbeat socket error: {}", cause.toString());
        }
    }
}
