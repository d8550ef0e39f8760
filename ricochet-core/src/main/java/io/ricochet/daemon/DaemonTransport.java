package io.ricochet.daemon;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
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
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.auth.FrameGuard;
import io.ricochet.engine.Counters;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's sockets (section 4.2.6 and DESIGN "daemon"): one unicast UDP socket for repairs, NAKs,
 * retransmissions and heartbeats, which also sends the multicast (TTL 1, on the configured interface); and the
 * group sockets, bound to the multicast port, which hold the joined groups' memberships on that interface, as
 * many per socket as Linux allows (net.ipv4.igmp_max_memberships; {@link MembershipTable}), so that a node in
 * 1024 groups has some 50 sockets, not 1024. The receiving sockets feed the one handler. With receive-thread off,
 * every socket lives on the engine's single-threaded event loop. With it on, the receiving sockets (the group sockets
 * and the unicast socket) live on a loop of their own, the receive thread, and the engine's loop sends on a socket of
 * its own, bound to the same address on a port the kernel picks: a send is then never a task for another thread.
 * Native epoll when available; NIO keeps one socket per address.
 */
final class DaemonTransport implements DaemonSockets, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DaemonTransport.class);
    /** Linux IP_MULTICAST_ALL (49): with 0 a socket gets only the groups it joined itself. */
    private static final IntegerUnixChannelOption IP_MULTICAST_ALL =
            new IntegerUnixChannelOption("IP_MULTICAST_ALL", 0, 49);
    /** Linux SO_RCVBUFFORCE (33) at level SOL_SOCKET (1): SO_RCVBUF beyond net.core.rmem_max, if privileged. */
    private static final IntegerUnixChannelOption SO_RCVBUFFORCE =
            new IntegerUnixChannelOption("SO_RCVBUFFORCE", 1, 33);
    /** Linux's option number (at level IPPROTO_IP) of the hop limit of sent multicast; not a hop count. */
    private static final int MULTICAST_HOPS_OPTION_NUMBER = 33;
    /** The hop limit of sent multicast, set by option number (the value set is multicast-ttl: 0 or 1). */
    private static final IntegerUnixChannelOption MULTICAST_HOPS =
            new IntegerUnixChannelOption("IP_MULTICAST_TTL", 0, MULTICAST_HOPS_OPTION_NUMBER);
    /** Bytes each datagram read may take at least (above the standard datagram, so none is cut short). */
    private static final int MIN_READ_SIZE = 2048;
    /**
     * Datagrams read from one socket per wake-up at most; the whole batch then goes through the receive buffer to
     * the engine, control and repairs before data (section 4.2.6). Netty's fixed allocator reads one per wake-up
     * unless told otherwise, which left the buffer with batches of one.
     */
    static final int READ_BATCH = 64;
    /** Datagrams one recvmmsg(2) call reads at most (epoll): each read buffer holds this many maximal datagrams. */
    private static final int RECVMMSG_BATCH = 16;
    /**
     * The largest read buffer (epoll), bytes: with large datagrams (a loopback mtu of 65535) fewer of them per
     * recvmmsg. A read buffer of 16 x 64 KB took a quarter of Netty's 4 MB pool chunk: freed after each read, the
     * chunk was freed with it, and the next read allocated and zeroed a new one, 58 % of a receive thread's CPU.
     */
    static final int MAX_READ_BUFFER = 256 * 1024;
    /**
     * Bytes of one read with UDP GRO: the largest run the kernel hands as one (64 KB), so that none is cut short.
     * Netty reads it with recvmsg, one run per call, and splits it into its datagrams.
     */
    static final int GRO_READ_SIZE = 65_536;

    private final DaemonConfig config;
    private final boolean epoll;
    private final EventLoopGroup loop;
    /** The receive thread's loop, or null when the engine's loop reads the sockets itself. */
    private final EventLoopGroup rxLoop;
    private final NetworkInterface iface;
    private ChannelHandler inbound;
    /** Group sockets by {@link MembershipTable} id; each future is its bind. */
    private final Map<Integer, ChannelFuture> groupSockets = new HashMap<>();
    private final MembershipTable memberships;
    /** Groups whose membership the kernel has taken (see {@link #whenListening}). */
    private final Set<Integer> listening = new HashSet<>();
    private final Map<Integer, List<Runnable>> waitingToListen = new HashMap<>();
    private DatagramChannel unicast;
    /** The socket datagrams are sent on, on the engine's loop: {@link #unicast}, or one of its own. */
    private DatagramChannel sender;
    /** Gathers what the sending socket sends into GSO runs (gso on, where epoll and the kernel offer it), or null. */
    private GsoBatcher gso;
    private int grantedReceiveBuffer;
    /** Seals every datagram sent; owned by the event loop, like every method that sends. */
    private final FrameGuard guard;
    /** Whether datagrams carry a seal (authentication on); without one a frame is sent as it is. */
    private final boolean sealing;
    private final byte[] sealed;
    /** Bytes each datagram read may take: the largest datagram of the daemon's mtu, or more. */
    private final int readSize;
    /**
     * Whether the sockets read UDP GRO runs (gro on, epoll, and the kernel took the option on the unicast socket);
     * else recvmmsg batches. Decided in {@link #start}, when the unicast socket is bound, before any group socket.
     */
    private boolean gro;

    /** Where Linux says how many multicast memberships one socket may hold (per network namespace). */
    static final Path MAX_MEMBERSHIPS_SYSCTL = Path.of("/proc/sys/net/ipv4/igmp_max_memberships");
    /** Linux's default of that limit, used where it cannot be read. */
    static final int DEFAULT_MAX_MEMBERSHIPS = 20;

    DaemonTransport(DaemonConfig config) throws SocketException {
        this(config, -1);
    }

    /**
     * @param membershipsPerSocket memberships one group socket may hold; -1 for the system's limit (read from
     *                             {@link #MAX_MEMBERSHIPS_SYSCTL}). NIO always holds one per socket.
     */
    DaemonTransport(DaemonConfig config, int membershipsPerSocket) throws SocketException {
        this.config = config;
        this.iface = NetworkInterface.getByName(config.iface());
        if (iface == null) {
            throw new IllegalArgumentException("interface = " + config.iface() + ": no such network interface");
        }
        requireCarries(iface.getMTU(), config);
        this.sealed = new byte[config.maxDatagramLength()];
        this.readSize = Math.max(MIN_READ_SIZE, config.maxDatagramLength());
        this.epoll = config.transport() == DaemonConfig.Transport.EPOLL
                || (config.transport() == DaemonConfig.Transport.AUTO && Epoll.isAvailable());
        // GRO joins datagrams into runs of up to 64 KB: with larger datagrams than half of that (a loopback or jumbo
        // mtu), none can share a run, and reading one per recvmsg would only cost the recvmmsg batches.
        this.gro = epoll && config.gro() && config.maxDatagramLength() <= GRO_READ_SIZE / 2;
        if (config.transport() == DaemonConfig.Transport.EPOLL && !Epoll.isAvailable()) {
            throw new IllegalArgumentException("transport = epoll: native epoll is not available here ("
                    + Epoll.unavailabilityCause() + ")");
        }
        this.memberships = new MembershipTable(!epoll ? 1
                : membershipsPerSocket > 0 ? membershipsPerSocket : systemMembershipLimit());
        // Named, so that per-thread CPU readings (/proc/PID/task/*/comm) and profiles find the engine's thread.
        ThreadFactory engineThread = new DefaultThreadFactory("ricochet-engine");
        this.loop = newLoop(engineThread);
        this.rxLoop = config.receiveThread() ? newLoop(new DefaultThreadFactory("ricochet-rx")) : null;
        this.guard = config.auth().newGuard(config.nodeId());
        this.sealing = config.auth().overhead() > 0;
    }

    private EventLoopGroup newLoop(ThreadFactory thread) {
        return epoll ? new EpollEventLoopGroup(1, thread) : new NioEventLoopGroup(1, thread);
    }

    /** The read buffers: a GRO run's, a recvmmsg batch's, or (NIO) one datagram's; at most READ_BATCH per wake-up. */
    private FixedRecvByteBufAllocator readAllocator() {
        int bytes = !epoll ? readSize : gro ? GRO_READ_SIZE : readSize * recvmmsgBatch(readSize);
        return (FixedRecvByteBufAllocator) new FixedRecvByteBufAllocator(bytes).maxMessagesPerRead(READ_BATCH);
    }

    /** Whether the sockets read UDP GRO runs (see {@link #checkGro}). */
    boolean readsGroRuns() {
        return gro;
    }

    /** Datagrams of up to {@code readSize} bytes one recvmmsg call reads: 16, fewer when they are large. */
    static int recvmmsgBatch(int readSize) {
        return Math.max(1, Math.min(RECVMMSG_BATCH, MAX_READ_BUFFER / readSize));
    }

    /** The loop the receiving sockets live on (their membership changes complete there, after the call). */
    EventLoopGroup receiveLoop() {
        return rxLoop != null ? rxLoop : loop;
    }

    /** Refuses an mtu larger than the interface's: the daemon's datagrams would be fragmented or dropped. */
    static void requireCarries(int interfaceMtu, DaemonConfig config) {
        if (interfaceMtu < config.mtu()) {
            throw new IllegalArgumentException("mtu = " + config.mtu() + ": interface " + config.iface()
                    + " carries packets of at most " + interfaceMtu + " bytes; lower mtu to at most " + interfaceMtu
                    + " or raise the interface's MTU (ip link set dev " + config.iface() + " mtu " + config.mtu()
                    + ")");
        }
    }

    /** The system's limit of memberships per socket, or Linux's default if it cannot be read. */
    static int systemMembershipLimit() {
        // One large read: a sysctl file answers only a read from offset 0, and Files.readString sizes its first
        // read by the file's length, which procfs gives as 0 (it read "2" of "20").
        try (BufferedReader reader = Files.newBufferedReader(MAX_MEMBERSHIPS_SYSCTL)) {
            String line = reader.readLine();
            int limit = line == null ? 0 : Integer.parseInt(line.strip());
            return limit > 0 ? limit : DEFAULT_MAX_MEMBERSHIPS;
        } catch (IOException | NumberFormatException e) {
            LOG.info("cannot read {} ({}): assuming {} multicast memberships per socket", MAX_MEMBERSHIPS_SYSCTL,
                    e.toString(), DEFAULT_MAX_MEMBERSHIPS);
            return DEFAULT_MAX_MEMBERSHIPS;
        }
    }

    /** The single event loop that owns the engine. */
    EventLoopGroup loop() {
        return loop;
    }

    String kind() {
        return epoll ? "epoll" : "nio";
    }

    /**
     * Binds the unicast socket and, with a receive thread, the engine's sending socket; the socket that sends has the
     * multicast sending options. Every receiving socket feeds {@code handler}.
     */
    void start(ChannelHandler handler) throws InterruptedException {
        this.inbound = handler;
        // Not SO_REUSEADDR, unlike the group sockets: with it a second daemon bound the same unicast port silently,
        // and the two then shared (and lost) each other's repairs and NAK answers.
        Bootstrap b = bootstrap(receiveLoop()).option(ChannelOption.SO_REUSEADDR, false);
        ChannelFuture bound = (rxLoop == null ? sending(b) : b).bind(config.unicastAddress()).await();
        if (!bound.isSuccess()) {
            throw BindFailure.of("the unicast socket", config.unicastAddress(), "address, unicast-port", bound.cause());
        }
        unicast = (DatagramChannel) bound.channel();
        String noGro = checkGro();
        if (rxLoop == null) {
            sender = unicast;
        } else {
            // Nothing is sent to this socket's port and nothing reads it: what reaches it stays in a small buffer.
            InetSocketAddress from = new InetSocketAddress(config.address(), 0);
            ChannelFuture sending = sending(bootstrap(loop)).option(ChannelOption.SO_REUSEADDR, false)
                    .option(ChannelOption.AUTO_READ, false).option(ChannelOption.SO_RCVBUF, MIN_READ_SIZE)
                    .bind(from).await();
            if (!sending.isSuccess()) {
                unicast.close();
                throw BindFailure.of("the sending socket", from, "address", sending.cause());
            }
            sender = (DatagramChannel) sending.channel();
        }
        int ttl = multicastTtl();
        if (ttl != config.multicastTtl()) {
            closeSockets();
            throw new IllegalStateException("multicast-ttl = " + config.multicastTtl() + ": the socket's multicast TTL"
                    + " is " + ttl + " (refused by the kernel?); multicast must not leave the link");
        }
        String noGso = config.gso() ? GsoBatcher.unavailable(sender) : "gso off";
        gso = noGso == null ? new GsoBatcher(sender) : null;
        grantedReceiveBuffer = unicast.config().getReceiveBufferSize();
        LOG.info("unicast socket {} on {} ({}), SO_RCVBUF asked {} granted {}; group sockets hold up to {} "
                + "memberships each{}; sends {}; reads {}", config.unicastAddress(), config.iface(), kind(),
                config.socketReceiveBuffer(), grantedReceiveBuffer, memberships.perSocket(),
                sender == unicast ? "" : "; a receive thread reads, the engine sends from " + sender.localAddress(),
                gso != null ? "in GSO runs" : "one datagram each (" + noGso + ")",
                gro ? "GRO runs" : !epoll ? "one datagram each" : "recvmmsg batches (" + noGro + ")");
    }

    /**
     * Whether the unicast socket, just bound, took UDP GRO as asked; if not (a kernel before 5.0, or gro off), the
     * sockets read recvmmsg batches, this one from now on. Returns why there is no GRO, or null.
     */
    private String checkGro() {
        if (!epoll) {
            return "not epoll";
        }
        if (!gro) {
            return config.gro() ? "datagrams of up to " + config.maxDatagramLength() + " bytes: no two fit a GRO run"
                    : "gro off";
        }
        if (Boolean.TRUE.equals(unicast.config().getOption(EpollChannelOption.UDP_GRO))) {
            return null;
        }
        gro = false;
        unicast.config().setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, readSize);
        unicast.config().setRecvByteBufAllocator(readAllocator());
        String why = "the kernel refused UDP_GRO (Linux 5.0+ has it)";
        LOG.warn("gro = on: {}; reading recvmmsg batches instead", why);
        return why;
    }

    /** The options of the socket that sends: the multicast interface and TTL, and a send buffer. */
    private Bootstrap sending(Bootstrap b) {
        b.option(ChannelOption.IP_MULTICAST_IF, iface).option(ChannelOption.SO_SNDBUF, config.socketReceiveBuffer());
        if (epoll) {
            // Netty's epoll IP_MULTICAST_TTL refuses 0 (EINVAL), and a refused option is only logged: set it by number.
            b.option(MULTICAST_HOPS, config.multicastTtl());
        } else {
            b.option(ChannelOption.IP_MULTICAST_TTL, config.multicastTtl());
        }
        return b;
    }

    private void closeSockets() {
        if (sender != null && sender != unicast) {
            sender.close().awaitUninterruptibly();
        }
        if (unicast != null) {
            unicast.close().awaitUninterruptibly();
        }
    }

    /** The multicast TTL the sending socket has, as the kernel reports it. */
    int multicastTtl() {
        return epoll ? sender.config().getOption(MULTICAST_HOPS) : sender.config().getTimeToLive();
    }

    private Bootstrap bootstrap(EventLoopGroup group) {
        Bootstrap b = new Bootstrap().group(group)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_RCVBUF, config.socketReceiveBuffer())
                .option(ChannelOption.RCVBUF_ALLOCATOR, readAllocator())
                .handler(inbound);
        if (epoll) {
            // A datagram size makes the epoll channel read with recvmmsg, RECVMMSG_BATCH datagrams per system call;
            // none (0), with GRO, makes it read one run per recvmsg and split it by the kernel's segment size.
            b.channel(EpollDatagramChannel.class).option(IP_MULTICAST_ALL, 0)
                    .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, gro ? 0 : readSize);
            if (gro) {
                b.option(EpollChannelOption.UDP_GRO, true);
            }
        } else {
            b.channelFactory(() -> new NioDatagramChannel(InternetProtocolFamily.IPv4));
        }
        return b;
    }

    /**
     * Joins the group's multicast address on the interface; idempotent. The membership goes on a group socket with
     * room ({@link MembershipTable}: first fit, up to {@link #membershipsPerSocket()} each), a new one bound to the
     * group's port if none has room; a group whose address another group already uses shares its membership. Runs
     * on the event loop, so it does not wait: the bind and the join complete asynchronously and a failure is
     * logged.
     */
    @Override
    public void joinGroup(int group, InetSocketAddress multicast) {
        MembershipTable.Join join = memberships.join(group, multicast);
        if (join == null) {
            return;
        }
        if (!join.newMembership()) {
            LOG.info("joined group {} at {}: that address is already joined for another group", group, multicast);
            listened(group);
            return;
        }
        ChannelFuture socket = join.newSocket() ? openGroupSocket(join.socket(), multicast)
                : groupSockets.get(join.socket());
        // The listeners run on the socket's loop (the receive thread's, if any); what they record is the engine's,
        // and the membership table is read here, on the engine's thread.
        int addresses = memberships.addressesOf(join.socket()).size();
        socket.addListener(bound -> {
            if (!bound.isSuccess()) {
                onEngine(() -> listened(group)); // openGroupSocket logged it; nothing will come of waiting
                return;
            }
            DatagramChannel channel = (DatagramChannel) socket.channel();
            channel.joinGroup(multicast, iface).addListener(joined -> {
                if (joined.isSuccess()) {
                    int buffer = sizeReceiveBuffer(channel, addresses);
                    LOG.info("joined group {} at {} on {} (group socket {}, SO_RCVBUF {})", group, multicast,
                            config.iface(), join.socket(), buffer);
                } else {
                    LOG.warn("cannot join group {} at {} on {} (group socket {}): {}", group, multicast,
                            config.iface(), join.socket(), joined.cause().toString());
                }
                onEngine(() -> listened(group));
            });
        });
    }

    /**
     * A group socket: bound to the port on every address (IP_MULTICAST_ALL off, so it gets only the groups it
     * joined), or, with one membership per socket (NIO, which cannot turn IP_MULTICAST_ALL off), to the group's
     * own address, so that the bind filters what it gets.
     */
    private ChannelFuture openGroupSocket(int id, InetSocketAddress multicast) {
        InetSocketAddress bindTo = memberships.perSocket() == 1 ? multicast
                : new InetSocketAddress(multicast.getPort());
        ChannelFuture bind = bootstrap(receiveLoop()).bind(bindTo);
        groupSockets.put(id, bind);
        bind.addListener(bound -> {
            if (bound.isSuccess()) {
                LOG.info("group socket {} bound to {} (up to {} memberships)", id, bindTo,
                        memberships.perSocket());
            } else {
                LOG.warn("cannot bind group socket {} to {}: {}", id, bindTo, bound.cause().toString());
            }
        });
        return bind;
    }

    /**
     * Runs {@code task} once the kernel has taken this node's membership of {@code group}, so that the group's
     * traffic reaches a socket: at once if it has (or if the group is not being joined), else when the join
     * completes (or fails, which is logged). The daemon answers an application's JOIN this way, so that what other
     * members send after the answer is received. Event loop only.
     */
    void whenListening(int group, Runnable task) {
        if (listening.contains(group) || !memberships.contains(group)) {
            task.run();
            return;
        }
        waitingToListen.computeIfAbsent(group, g -> new ArrayList<>()).add(task);
    }

    private void onEngine(Runnable task) {
        io.netty.util.concurrent.EventExecutor engine = loop.next();
        if (engine.inEventLoop()) {
            task.run();
        } else {
            engine.execute(task);
        }
    }

    private void listened(int group) {
        if (memberships.contains(group)) {
            listening.add(group);
        }
        List<Runnable> waiting = waitingToListen.remove(group);
        if (waiting != null) {
            waiting.forEach(Runnable::run);
        }
    }

    /**
     * Gives a group socket holding {@code memberships} groups the kernel buffer that many sockets of one group each
     * had: {@code socket-rcvbuf} per group. Sharing one buffer would let a short stall of the engine thread (a GC, a
     * burst) overflow it at a fraction of the rate that separate sockets absorbed. Beyond net.core.rmem_max only a
     * privileged daemon gets it (SO_RCVBUFFORCE); otherwise the kernel caps it there. Only grows. Returns the size
     * the kernel granted.
     */
    private int sizeReceiveBuffer(DatagramChannel channel, int memberships) {
        int wanted = (int) Math.min(Integer.MAX_VALUE / 2, (long) config.socketReceiveBuffer() * memberships);
        if (wanted > channel.config().getReceiveBufferSize() / 2) {
            try {
                if (!epoll || !channel.config().setOption(SO_RCVBUFFORCE, wanted)) {
                    channel.config().setReceiveBufferSize(wanted);
                }
            } catch (io.netty.channel.ChannelException notPrivileged) {
                channel.config().setReceiveBufferSize(wanted);
            }
        }
        return channel.config().getReceiveBufferSize();
    }

    /** Drops the group's membership unless another group uses its address; closes a socket left with none. */
    @Override
    public void leaveGroup(int group) {
        listened(group);
        listening.remove(group);
        MembershipTable.Leave leave = memberships.leave(group);
        if (leave == null) {
            return;
        }
        if (leave.closeSocket()) {
            groupSockets.remove(leave.socket()).channel().close();
            LOG.info("left group {}; closed group socket {}, its last membership", group, leave.socket());
        } else if (leave.dropMembership()) {
            ChannelFuture socket = groupSockets.get(leave.socket());
            socket.addListener(bound -> {
                if (bound.isSuccess()) {
                    ((DatagramChannel) socket.channel()).leaveGroup(leave.address(), iface);
                }
            });
            LOG.info("left group {} at {} (group socket {})", group, leave.address(), leave.socket());
        } else {
            LOG.info("left group {}; its address {} stays joined for another group", group, leave.address());
        }
    }

    /**
     * Queues a frame, sealed, on the unicast socket (multicast destinations included); flushed by {@link #flush()}.
     */
    @Override
    public void send(InetSocketAddress to, int destination, byte[] frame, int offset, int length) {
        byte[] bytes = frame;
        int from = offset;
        int datagram = length;
        if (sealing) {
            System.arraycopy(frame, offset, sealed, 0, length);
            datagram = guard.seal(sealed, 0, length, destination);
            bytes = sealed;
            from = 0;
        }
        if (gso != null) {
            gso.add(to, bytes, from, datagram);
            return;
        }
        // Without sealing, the frame goes straight into the socket's buffer, one copy instead of two.
        ByteBuf buf = sender.alloc().directBuffer(datagram);
        buf.writeBytes(bytes, from, datagram);
        sender.write(new DatagramPacket(buf, to), sender.voidPromise());
    }

    @Override
    public void flush() {
        if (gso != null) {
            gso.endRuns();
        }
        sender.flush();
    }

    /** Brings {@code counters} up to date with the GSO runs sent so far, which only this counts (engine thread). */
    void foldCounters(Counters counters) {
        if (gso != null) {
            counters.add(DaemonCounter.GSO_SENDS, gso.runs() - counters.get(DaemonCounter.GSO_SENDS));
            counters.add(DaemonCounter.GSO_DATAGRAMS, gso.runDatagrams() - counters.get(DaemonCounter.GSO_DATAGRAMS));
        }
    }

    int grantedReceiveBuffer() {
        return grantedReceiveBuffer;
    }

    int joinedGroups() {
        return memberships.groups();
    }

    /** Multicast addresses joined (groups sharing an address, such as the groups of one region, share one). */
    int memberships() {
        return memberships.memberships();
    }

    /** Group sockets open (each holding up to {@link #membershipsPerSocket()} memberships). */
    int groupSockets() {
        return memberships.sockets();
    }

    int membershipsPerSocket() {
        return memberships.perSocket();
    }

    /** The kernel's receive buffer size of group socket {@code id}, or -1 if there is none (event loop only). */
    int groupSocketReceiveBuffer(int id) {
        ChannelFuture socket = groupSockets.get(id);
        return socket == null || !socket.isSuccess() ? -1
                : ((DatagramChannel) socket.channel()).config().getReceiveBufferSize();
    }

    @Override
    public void close() {
        // The group sockets belong to the event loop, where membership changes may still be coming in: close them
        // there (closing them from here raced with a leave removing one: ConcurrentModificationException).
        Runnable closeGroups = () -> {
            for (ChannelFuture socket : groupSockets.values()) {
                socket.channel().close();
            }
            groupSockets.clear();
            if (gso != null) {
                gso.discard();
            }
        };
        io.netty.util.concurrent.EventExecutor owner = loop.next();
        if (owner.inEventLoop()) {
            closeGroups.run();
        } else if (!owner.isShuttingDown()) {
            owner.submit(closeGroups).awaitUninterruptibly();
        }
        closeSockets();
        if (rxLoop != null) {
            rxLoop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
        }
        loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
