package io.ricochet.daemon;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's Netty edge, shared by its receiving sockets: each datagram goes to the {@link Landing}, and the end
 * of each read burst lets it hand the batch on. Peer input never escapes as an exception.
 */
@ChannelHandler.Sharable
final class DatagramHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LoggerFactory.getLogger(DatagramHandler.class);

    private final Landing landing;

    DatagramHandler(Landing landing) {
        this.landing = landing;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        landing.land(packet.content());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        landing.endOfBurst();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A socket error is logged once per occurrence; it never reaches the engine.
        LOG.warn("socket error on {}: {}", ctx.channel().localAddress(), cause.toString());
    }
}
