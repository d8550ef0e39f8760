package io.ricochet.bench.rx;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;

/**
 * The daemon's receive path without the engine: Netty's epoll datagram channel on its own event loop, reading with
 * recvmmsg (16 datagrams per call, up to 64 per wake-up: {@code DaemonTransport}'s settings), each datagram copied
 * from Netty's buffer into a byte array slot.
 */
final class NettyRx extends RxPath {
    private static final int DATAGRAM = 2048;
    private final EpollEventLoopGroup loop = new EpollEventLoopGroup(1,
            (java.util.concurrent.ThreadFactory) r -> new Thread(r, "rx-netty"));
    private final DatagramChannel channel;

    NettyRx(InetSocketAddress group, NetworkInterface iface, int rcvbuf) throws InterruptedException {
        byte[] slot = new byte[65_536];
        channel = (DatagramChannel) new Bootstrap().group(loop).channel(EpollDatagramChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_RCVBUF, rcvbuf)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(DATAGRAM * 16)
                        .maxMessagesPerRead(64))
                .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, DATAGRAM)
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        ByteBuf content = packet.content();
                        content.getBytes(content.readerIndex(), slot, 0, content.readableBytes());
                        countOne();
                    }
                })
                .bind(new InetSocketAddress(group.getPort())).sync().channel();
        channel.joinGroup(group, iface).sync();
        loop.submit(this::onReadingThread).sync();
    }

    @Override
    public void close() throws Exception {
        channel.close().sync();
        loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).sync();
    }
}
