package io.ricochet.daemon;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's sockets (section 4.2.6 and DESIGN "daemon"): one unicast UDP socket for repairs, NAKs,
 * retransmissions and heartbeats, which also sends the multicast (TTL 1, on the configured interface); and one
 * socket per joined group, bound to the group's address and port and joined on that interface. All channels
 * live on one single-threaded event loop: the thread that owns the engine. Native epoll when available.
 */
final class DaemonTransport implements Transport, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DaemonTransport.class);
    /** Linux IP_MULTICAST_ALL (49): with 0 a socket gets only the groups it joined itself. */
    private static final IntegerUnixChannelOption IP_MULTICAST_ALL =
            new IntegerUnixChannelOption("IP_MULTICAST_ALL", 0, 49);
    private static final int MAX_DATAGRAM = 2048;
    /**
     * Datagrams read from one socket per wake-up at most; the whole batch then goes through the receive buffer to
     * the engine, control and repairs before data (section 4.2.6). Netty's fixed allocator reads one per wake-up
     * unless told otherwise, which left the buffer with batches of one.
     */
    static final int READ_BATCH = 64;
    /** Datagrams one recvmmsg(2) call reads at most (epoll): each read buffer holds this many maximal datagrams. */
    private static final int RECVMMSG_BATCH = 16;

    private final DaemonConfig config;
    private final boolean epoll;
    private final EventLoopGroup loop;
    private final NetworkInterface iface;
    private ChannelHandler inbound;
    private final Map<Integer, DatagramChannel> groupChannels = new HashMap<>();
    private DatagramChannel unicast;
    private int grantedReceiveBuffer;
    /** Seals every datagram sent; owned by the event loop, like every method that sends. */
    private final FrameGuard guard;
    private final byte[] sealed = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];

    DaemonTransport(DaemonConfig config) throws SocketException {
        this.config = config;
        this.iface = NetworkInterface.getByName(config.iface());
        if (iface == null) {
            throw new IllegalArgumentException("interface = " + config.iface() + ": no such network interface");
        }
        this.epoll = config.transport() == DaemonConfig.Transport.EPOLL
                || (config.transport() == DaemonConfig.Transport.AUTO && Epoll.isAvailable());
        if (config.transport() == DaemonConfig.Transport.EPOLL && !Epoll.isAvailable()) {
            throw new IllegalArgumentException("transport = epoll: native epoll is not available here ("
                    + Epoll.unavailabilityCause() + ")");
        }
        this.loop = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
        this.guard = config.auth().newGuard();
    }

    /** The single event loop that owns the engine. */
    EventLoopGroup loop() {
        return loop;
    }

    String kind() {
        return epoll ? "epoll" : "nio";
    }

    /** Binds the unicast socket, with the multicast sending options; every socket feeds {@code handler}. */
    void start(ChannelHandler handler) throws InterruptedException {
        this.inbound = handler;
        unicast = (DatagramChannel) bootstrap()
                .option(ChannelOption.IP_MULTICAST_IF, iface)
                .option(ChannelOption.IP_MULTICAST_TTL, config.multicastTtl())
                .option(ChannelOption.SO_SNDBUF, config.socketReceiveBuffer())
                .bind(config.unicastAddress()).sync().channel();
        grantedReceiveBuffer = unicast.config().getReceiveBufferSize();
        LOG.info("unicast socket {} on {} ({}), SO_RCVBUF asked {} granted {}", config.unicastAddress(),
                config.iface(), kind(), config.socketReceiveBuffer(), grantedReceiveBuffer);
    }

    private Bootstrap bootstrap() {
        Bootstrap b = new Bootstrap().group(loop)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_RCVBUF, config.socketReceiveBuffer())
                .option(ChannelOption.RCVBUF_ALLOCATOR,
                        new FixedRecvByteBufAllocator(epoll ? MAX_DATAGRAM * RECVMMSG_BATCH : MAX_DATAGRAM)
                                .maxMessagesPerRead(READ_BATCH))
                .handler(inbound);
        if (epoll) {
            // A datagram size makes the epoll channel read with recvmmsg, RECVMMSG_BATCH datagrams per system call.
            b.channel(EpollDatagramChannel.class).option(IP_MULTICAST_ALL, 0)
                    .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM);
        } else {
            b.channelFactory(() -> new NioDatagramChannel(InternetProtocolFamily.IPv4));
        }
        return b;
    }

    /**
     * Opens a socket bound to the group's address and joins it on the interface; idempotent. Runs on the event
     * loop, so it does not wait: the bind and the join complete asynchronously and a failure is logged.
     */
    @Override
    public void joinGroup(int group, InetSocketAddress multicast) {
        if (groupChannels.containsKey(group)) {
            return;
        }
        ChannelFuture bind = bootstrap().bind(multicast);
        DatagramChannel channel = (DatagramChannel) bind.channel();
        groupChannels.put(group, channel);
        bind.addListener(bound -> {
            if (!bound.isSuccess()) {
                LOG.warn("cannot bind group {} at {}: {}", group, multicast, bound.cause().toString());
                return;
            }
            channel.joinGroup(multicast, iface).addListener(joined -> {
                if (joined.isSuccess()) {
                    LOG.info("joined group {} at {} on {}", group, multicast, config.iface());
                } else {
                    LOG.warn("cannot join group {} at {} on {}: {}", group, multicast, config.iface(),
                            joined.cause().toString());
                }
            });
        });
    }

    /** Leaves the group's multicast address and closes its socket. */
    @Override
    public void leaveGroup(int group) {
        DatagramChannel channel = groupChannels.remove(group);
        if (channel != null) {
            channel.close();
            LOG.info("left group {}", group);
        }
    }

    /**
     * Queues a frame, sealed, on the unicast socket (multicast destinations included); flushed by {@link #flush()}.
     */
    @Override
    public void send(InetSocketAddress to, byte[] frame, int offset, int length) {
        System.arraycopy(frame, offset, sealed, 0, length);
        int datagram = guard.seal(sealed, 0, length);
        ByteBuf buf = unicast.alloc().directBuffer(datagram);
        buf.writeBytes(sealed, 0, datagram);
        unicast.write(new DatagramPacket(buf, to), unicast.voidPromise());
    }

    @Override
    public void flush() {
        unicast.flush();
    }

    int grantedReceiveBuffer() {
        return grantedReceiveBuffer;
    }

    int joinedGroups() {
        return groupChannels.size();
    }

    @Override
    public void close() {
        for (Channel channel : groupChannels.values()) {
            channel.close().awaitUninterruptibly();
        }
        groupChannels.clear();
        if (unicast != null) {
            ChannelFuture f = unicast.close();
            f.awaitUninterruptibly();
        }
        loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
