package io.ricochet.daemon;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.engine.Counters;
import io.ricochet.wire.HeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's Netty edge, shared by its sockets: copies each datagram out of its buffer into the receive buffer's
 * free slot (refusing one that cannot
 * be a frame, counted), checks its authentication and freshness before anything reads it (a failure is counted,
 * as unauthentic, replayed or stale, and dropped),
 * hands the frame to the {@link EngineDriver}, and at the end of each read burst lets the driver
 * process the batch. Peer input never escapes as an exception.
 */
@ChannelHandler.Sharable
final class DatagramHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LoggerFactory.getLogger(DatagramHandler.class);

    private final int self;
    private final EngineDriver driver;
    private final Counters counters;
    private final FrameGuard guard;

    /** @param guard checks every datagram before anything reads it (the engine's thread owns it) */
    DatagramHandler(int self, EngineDriver driver, FrameGuard guard) {
        this.self = self;
        this.driver = driver;
        this.counters = driver.counters();
        this.guard = guard;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf content = packet.content();
        int length = content.readableBytes();
        if (length < HeaderFlyweight.HEADER_LENGTH) {
            counters.increment(DaemonCounter.BAD_DATAGRAM_SIZE);
            return;
        }
        if (content.getInt(content.readerIndex() + HeaderFlyweight.SOURCE_OFFSET) == self) {
            // Our own multicast, looped back so that daemons sharing the host receive it: nothing in it is news to
            // us, so it is not copied or checked (a forgery naming us as its source loses nothing either).
            counters.increment(DaemonCounter.OWN_DATAGRAMS);
            return;
        }
        // The one copy out of the socket's buffer, into the receive buffer's free slot for the (as yet unchecked)
        // frame type; a datagram refused below leaves the slot free, so forged input cannot displace anything. A slot
        // holds the largest datagram of this daemon's mtu: a longer one is refused.
        byte[] slot = driver.receiveSlot(content.getByte(content.readerIndex() + HeaderFlyweight.TYPE_OFFSET));
        if (length > slot.length) {
            counters.increment(DaemonCounter.BAD_DATAGRAM_SIZE);
            return;
        }
        content.getBytes(content.readerIndex(), slot, 0, length);
        int frameLength = guard.open(slot, 0, length);
        if (frameLength < HeaderFlyweight.HEADER_LENGTH || frameLength > HeaderFlyweight.MAX_FRAME_LENGTH) {
            counters.increment(refusal(frameLength));
            return;
        }
        driver.receive(slot, frameLength, length, packet.sender());
    }

    /** The counter of a datagram {@link FrameGuard#open} refused with {@code reason}. */
    static DaemonCounter refusal(int reason) {
        switch (reason) {
            case DatagramAuth.REPLAYED:
                return DaemonCounter.REPLAYED_DATAGRAMS;
            case DatagramAuth.STALE:
                return DaemonCounter.STALE_DATAGRAMS;
            default:
                return DaemonCounter.UNAUTHENTIC_DATAGRAMS;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        driver.process();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A socket error is logged once per occurrence; it never reaches the engine.
        LOG.warn("socket error on {}: {}", ctx.channel().localAddress(), cause.toString());
    }
}
