package io.ricochet.bench.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.daemon.GsoBatcher;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;

/**
 * The load generator's one UDP socket, as the daemon's unicast socket is set up: bound to the node's unicast
 * address (NAKs and repairs arrive there), and sending multicast with TTL 1 on the configured interface. Writes
 * are queued and go out on {@link #flush()}, one system call per batch where the transport allows it (epoll uses
 * sendmmsg). With GSO, frames of one length to one address go out as UDP GSO sends ({@link GsoBatcher}, as the
 * daemon's): one trip through the sending stack (and a bridge) for a run of frames, split into its datagrams at
 * the receiving socket, which reads them one by one as if each had been sent alone. Every datagram is sealed on its
 * way out by the {@link FrameGuard}, as the daemon's transport seals (a copy of the frame with the trailer after it),
 * so what leaves is what a daemon would send; the frames of a GSO run, of one length, stay of one length sealed.
 * Use it on its event loop only.
 */
final class LoadSocket implements AutoCloseable {
    /** Linux IP_MULTICAST_ALL (49): with 0 a socket gets only the groups it joined itself (it joins none). */
    private static final IntegerUnixChannelOption IP_MULTICAST_ALL =
            new IntegerUnixChannelOption("IP_MULTICAST_ALL", 0, 49);
    private static final int MAX_DATAGRAM = 2048;
    /** Room for any frame this socket sends and its trailer (a NAK's answer is at most a data frame). */
    private final byte[] sealed = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
    private static final int MULTICAST_TTL = 1;
    private final DatagramChannel channel;
    private final GsoBatcher gso;
    private final FrameGuard guard;

    /**
     * Binds the socket.
     *
     * @param loop        its event loop (an epoll group gives an epoll socket)
     * @param iface       the interface multicast goes out on
     * @param bind        the node's unicast address
     * @param socketBytes SO_SNDBUF and SO_RCVBUF asked for
     * @param multicastLoop whether this host's own sockets also get the multicast (a receiver sharing the host)
     * @param gso         whether runs of frames go out as GSO sends (epoll only: {@link GsoBatcher#unavailable})
     * @param guard       seals every datagram sent (the process's authentication; a pass-through when insecure)
     * @param inbound     reads what arrives
     */
    LoadSocket(EventLoopGroup loop, NetworkInterface iface, InetSocketAddress bind, int socketBytes,
               boolean multicastLoop, boolean gso, FrameGuard guard, ChannelHandler inbound)
            throws InterruptedException {
        this.guard = guard;
        Bootstrap b = new Bootstrap().group(loop)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_RCVBUF, socketBytes)
                .option(ChannelOption.SO_SNDBUF, socketBytes)
                .option(ChannelOption.IP_MULTICAST_IF, iface)
                .option(ChannelOption.IP_MULTICAST_TTL, MULTICAST_TTL)
                .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, !multicastLoop)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM))
                .handler(inbound);
        if (loop instanceof EpollEventLoopGroup) {
            b.channel(EpollDatagramChannel.class).option(IP_MULTICAST_ALL, 0);
        } else {
            b.channelFactory(() -> new NioDatagramChannel(InternetProtocolFamily.IPv4));
        }
        this.channel = (DatagramChannel) b.bind(bind).sync().channel();
        String why = gso ? GsoBatcher.unavailable(channel) : null;
        if (why != null) {
            channel.close();
            throw new IllegalStateException("--gso: " + why);
        }
        this.gso = gso ? new GsoBatcher(channel) : null;
    }

    /**
     * Queues the datagram of one multicast frame (copied out of {@code frame} and sealed); it leaves on the next
     * {@link #flush()}.
     */
    void send(InetSocketAddress to, byte[] frame, int length) {
        send(to, FrameGuard.NO_DESTINATION, frame, length);
    }

    /** As {@link #send(InetSocketAddress, byte[], int)}, sealed for the node {@code destination} (a unicast). */
    void send(InetSocketAddress to, int destination, byte[] frame, int length) {
        System.arraycopy(frame, 0, sealed, 0, length);
        int datagram = guard.seal(sealed, 0, length, destination);
        if (gso != null) {
            gso.add(to, sealed, 0, datagram);
            return;
        }
        ByteBuf buf = channel.alloc().directBuffer(datagram);
        buf.writeBytes(sealed, 0, datagram);
        channel.write(new DatagramPacket(buf, to), channel.voidPromise());
    }

    void flush() {
        if (gso != null) {
            gso.endRuns();
        }
        channel.flush();
    }

    /** False while the queued writes are above Netty's high water mark. */
    boolean isWritable() {
        return channel.isWritable();
    }

    /** The address the socket is bound to. */
    InetSocketAddress localAddress() {
        return channel.localAddress();
    }

    /** The SO_SNDBUF the kernel granted. */
    int grantedSendBuffer() {
        return channel.config().getSendBufferSize();
    }

    @Override
    public void close() {
        if (gso != null) {
            channel.eventLoop().submit(gso::discard).awaitUninterruptibly();
        }
        channel.close().awaitUninterruptibly();
    }
}
