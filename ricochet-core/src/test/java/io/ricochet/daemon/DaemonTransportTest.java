package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.auth.FrameGuard;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.ViewRegion;
import io.ricochet.membership.ViewReconciler;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The daemon's unicast socket on the loopback: datagrams in reach the handler, sends go out once flushed. */
class DaemonTransportTest {
    @Test
    void aReadBufferStaysSmallWithLargeDatagrams() {
        assertEquals(16, DaemonTransport.recvmmsgBatch(2048), "standard datagrams: 16 per recvmmsg");
        assertEquals(16, DaemonTransport.recvmmsgBatch(9000), "jumbo frames: still 16 (144 KB)");
        assertEquals(4, DaemonTransport.recvmmsgBatch(65_535), "loopback's largest: 4, one 256 KB buffer");
        assertEquals(1, DaemonTransport.recvmmsgBatch(DaemonTransport.MAX_READ_BUFFER + 1), "at least one");
        assertTrue(4 * 65_535 <= DaemonTransport.MAX_READ_BUFFER);
    }


    @ChannelHandler.Sharable
    private static final class Inbox extends SimpleChannelInboundHandler<DatagramPacket> {
        final BlockingQueue<byte[]> received = new ArrayBlockingQueue<>(256);

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            received.add(ByteBufUtil.getBytes(packet.content()));
        }
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static DaemonConfig config(int port) {
        return config(port, true);
    }

    private static DaemonConfig config(int port, boolean receiveThread) {
        return DaemonSettings.resolve(new Properties(), "test", Map.of("node-id", "1", "interface", "lo",
                "address", "127.0.0.1", "unicast-port", Integer.toString(port), "gms", "127.0.0.1:1",
                "transport", "nio", "insecure", "on", "receive-thread", receiveThread ? "on" : "off"));
    }

    private static <T> T onLoop(DaemonTransport transport, java.util.concurrent.Callable<T> task) throws Exception {
        CompletableFuture<T> done = new CompletableFuture<>();
        transport.loop().execute(() -> {
            try {
                done.complete(task.call());
            } catch (Exception e) {
                done.completeExceptionally(e);
            }
        });
        return done.get(5, TimeUnit.SECONDS);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"nio, 0", "nio, 1", "epoll, 0", "epoll, 1"})
    void shouldSendMulticastWithTheConfiguredTtl(String kind, int ttl) throws Exception {
        int port = freeUdpPort();
        DaemonConfig config = DaemonSettings.resolve(new Properties(), "test", Map.of("node-id", "1",
                "interface", "lo", "address", "127.0.0.1", "unicast-port", Integer.toString(port),
                "gms", "127.0.0.1:1", "transport", kind, "insecure", "on", "multicast-ttl", Integer.toString(ttl)));
        try (DaemonTransport transport = new DaemonTransport(config)) {
            transport.start(new Inbox());
            assertEquals(ttl, onLoop(transport, transport::multicastTtl));
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"nio", "epoll"})
    void shouldRefuseAUnicastPortAnotherDaemonHoldsAndSaySo(String kind) throws Exception {
        int port = freeUdpPort();
        try (DaemonTransport first = groupTransport(kind, port, LIMIT);
             DaemonTransport second = groupTransport(kind, port, LIMIT)) {
            first.start(new Inbox());
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> second.start(new Inbox()));
            assertTrue(refused.getMessage().startsWith("cannot bind the unicast socket to 127.0.0.1:" + port
                    + " (address, unicast-port): "), refused.getMessage());
            assertTrue(refused.getMessage().contains("another process (another daemon on this host?) uses"),
                    refused.getMessage());
        }
    }

    @Test
    void shouldSayWhenTheAddressIsNotThisHosts() throws Exception {
        Map<String, String> settings = Map.of("node-id", "1", "interface", "lo", "address", "192.0.2.1",
                "unicast-port", Integer.toString(freeUdpPort()), "gms", "127.0.0.1:1", "insecure", "on");
        try (DaemonTransport transport = new DaemonTransport(DaemonSettings.resolve(new Properties(), "test",
                settings))) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> transport.start(new Inbox()));
            assertTrue(refused.getMessage().contains("192.0.2.1 is not an address of this host"),
                    refused.getMessage());
        }
    }

    @ParameterizedTest(name = "receive thread {0}")
    @ValueSource(booleans = {true, false})
    void shouldHandDatagramsToTheHandlerAndSendQueuedOnesOnFlush(boolean receiveThread) throws Exception {
        int port = freeUdpPort();
        Inbox inbox = new Inbox();
        try (DaemonTransport transport = new DaemonTransport(config(port, receiveThread));
             DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            transport.start(inbox);
            assertEquals("nio", transport.kind());
            assertTrue(transport.grantedReceiveBuffer() > 0);

            byte[] in = {1, 2, 3, 4};
            peer.send(new java.net.DatagramPacket(in, in.length, InetAddress.getLoopbackAddress(), port));
            assertArrayEquals(in, inbox.received.poll(5, TimeUnit.SECONDS));

            byte[] out = {9, 8, 7};
            InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.getLocalPort());
            onLoop(transport, () -> {
                transport.send(to, FrameGuard.NO_DESTINATION, out, 0, out.length);
                transport.flush();
                return null;
            });
            peer.setSoTimeout(5_000);
            java.net.DatagramPacket got = new java.net.DatagramPacket(new byte[16], 16);
            peer.receive(got);
            assertEquals(3, got.getLength());
            if (receiveThread) {
                // The receive thread owns the unicast socket; the engine's thread sends from a port of its own.
                assertTrue(got.getPort() != port, "sent from the sending socket, port " + got.getPort());
            } else {
                assertEquals(port, got.getPort(), "sent from the unicast socket");
            }
            assertEquals(InetAddress.getLoopbackAddress(), got.getAddress(), "from the daemon's address");
            assertArrayEquals(out, java.util.Arrays.copyOf(got.getData(), got.getLength()));
        }
    }

    @ParameterizedTest(name = "gso {0}")
    @ValueSource(booleans = {true, false})
    void shouldSendEveryQueuedFrameToItsPeerInOrderWithOrWithoutGso(boolean gso) throws Exception {
        io.ricochet.support.Platform.need(io.netty.channel.epoll.Epoll.isAvailable(), "epoll");
        DaemonConfig config = DaemonSettings.resolve(new Properties(), "test", Map.of("node-id", "1",
                "interface", "lo", "address", "127.0.0.1", "unicast-port", Integer.toString(freeUdpPort()),
                "gms", "127.0.0.1:1", "transport", "epoll", "insecure", "on", "gso", gso ? "on" : "off"));
        try (DaemonTransport transport = new DaemonTransport(config);
             DatagramSocket a = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             DatagramSocket b = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            transport.start(new Inbox());
            DatagramSocket[] peers = {a, b};
            io.ricochet.engine.Counters counters = new io.ricochet.engine.Counters(DaemonCounter.ALL);
            onLoop(transport, () -> {
                for (int i = 0; i < 20; i++) {
                    byte[] frame = {(byte) i, 1, 2, 3, 4, 5, 6, 7};
                    transport.send((InetSocketAddress) peers[i % 2].getLocalSocketAddress(), FrameGuard.NO_DESTINATION,
                            frame, 0, frame.length);
                }
                transport.flush();
                transport.foldCounters(counters);
                return null;
            });
            for (int i = 0; i < 20; i++) {
                DatagramSocket peer = peers[i % 2];
                peer.setSoTimeout(5_000);
                java.net.DatagramPacket got = new java.net.DatagramPacket(new byte[64], 64);
                peer.receive(got);
                assertEquals(8, got.getLength(), "datagram " + i);
                assertEquals(i, got.getData()[0], "datagram " + i + " in its peer's order");
            }
            if (gso && GsoBatcher.unavailable(true) == null) {
                assertEquals(2, counters.get(DaemonCounter.GSO_SENDS), "one run per peer");
                assertEquals(20, counters.get(DaemonCounter.GSO_DATAGRAMS));
            } else {
                assertEquals(0, counters.get(DaemonCounter.GSO_SENDS));
            }
        }
    }

    @ParameterizedTest(name = "gro {0}")
    @ValueSource(booleans = {true, false})
    void shouldHandEachDatagramOfARunSentInOneGsoSendApartInOrderWithOrWithoutGro(boolean gro) throws Exception {
        io.ricochet.support.Platform.need(io.netty.channel.epoll.Epoll.isAvailable(), "epoll");
        io.ricochet.support.Platform.need(GsoBatcher.unavailable(true) == null, "UDP GSO");
        int port = freeUdpPort();
        Inbox inbox = new Inbox();
        try (DaemonTransport receiver = new DaemonTransport(epollConfig(port, "gro", gro ? "on" : "off"));
             DaemonTransport sender = new DaemonTransport(epollConfig(freeUdpPort(), "gso", "on"))) {
            receiver.start(inbox);
            sender.start(new Inbox());
            assertEquals(gro, receiver.readsGroRuns(), "this kernel takes UDP_GRO (Linux 5.0+)");
            InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            int count = 40;
            onLoop(sender, () -> {
                for (int i = 0; i < count; i++) {
                    byte[] datagram = new byte[i == count - 1 ? 77 : 300];     // a shorter last one ends the run
                    java.util.Arrays.fill(datagram, (byte) i);
                    sender.send(to, FrameGuard.NO_DESTINATION, datagram, 0, datagram.length);
                }
                sender.flush();
                return null;
            });
            for (int i = 0; i < count; i++) {
                byte[] got = inbox.received.poll(5, TimeUnit.SECONDS);
                assertNotNull(got, "datagram " + i);
                assertEquals(i == count - 1 ? 77 : 300, got.length, "datagram " + i + " alone");
                assertEquals(i, got[0], "datagram " + i + " in order");
                assertEquals(i, got[got.length - 1], "datagram " + i + " whole");
            }
            assertNull(inbox.received.poll(200, TimeUnit.MILLISECONDS), "nothing more");
        }
    }

    @Test
    void shouldReadRecvmmsgBatchesWhenNoTwoDatagramsFitARun() throws Exception {
        io.ricochet.support.Platform.need(io.netty.channel.epoll.Epoll.isAvailable(), "epoll");
        DaemonConfig config = DaemonSettings.resolve(new Properties(), "test", Map.of("node-id", "1",
                "interface", "lo", "address", "127.0.0.1", "unicast-port", Integer.toString(freeUdpPort()),
                "gms", "127.0.0.1:1", "transport", "epoll", "insecure", "on", "gro", "on", "mtu", "65535"));
        try (DaemonTransport transport = new DaemonTransport(config)) {
            transport.start(new Inbox());
            assertFalse(transport.readsGroRuns(), "datagrams of up to " + config.maxDatagramLength() + " bytes");
        }
    }

    private static DaemonConfig epollConfig(int port, String key, String value) {
        return DaemonSettings.resolve(new Properties(), "test", Map.of("node-id", "1", "interface", "lo",
                "address", "127.0.0.1", "unicast-port", Integer.toString(port), "gms", "127.0.0.1:1",
                "transport", "epoll", "insecure", "on", key, value));
    }

    /** Counts the datagrams of each read batch (between two channelReadComplete calls). */
    @ChannelHandler.Sharable
    private static final class BatchCounter extends SimpleChannelInboundHandler<DatagramPacket> {
        final java.util.List<Integer> batches = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.concurrent.atomic.AtomicInteger total = new java.util.concurrent.atomic.AtomicInteger();
        private int current;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            current++;
            total.incrementAndGet();
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (current > 0) {
                batches.add(current);
            }
            current = 0;
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"nio", "epoll"})
    void shouldReadWaitingDatagramsInBatchesOfAtMostReadBatch(String kind) throws Exception {
        io.ricochet.support.Platform.need(kind.equals("nio") || io.netty.channel.epoll.Epoll.isAvailable(),
                "native epoll is not available here");
        int port = freeUdpPort();
        BatchCounter counter = new BatchCounter();
        Map<String, String> settings = new java.util.HashMap<>(Map.of("node-id", "1", "interface", "lo",
                "address", "127.0.0.1", "unicast-port", Integer.toString(port), "gms", "127.0.0.1:1",
                "transport", kind, "insecure", "on"));
        int count = 3 * DaemonTransport.READ_BATCH + 5;
        try (DaemonTransport transport = new DaemonTransport(DaemonSettings.resolve(new Properties(), "test",
                settings));
             DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            transport.start(counter);
            // The loop that reads the sockets (the receive thread's) is held while the datagrams wait in the kernel.
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            transport.receiveLoop().execute(() -> {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            byte[] datagram = new byte[64];
            for (int i = 0; i < count; i++) {
                peer.send(new java.net.DatagramPacket(datagram, datagram.length, InetAddress.getLoopbackAddress(),
                        port));
            }
            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (counter.total.get() < count && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            transport.receiveLoop().submit(() -> { }).get(5, TimeUnit.SECONDS); // the last burst's end has run
            assertEquals(count, counter.total.get());
            assertTrue(counter.batches.stream().allMatch(b -> b <= DaemonTransport.READ_BATCH),
                    counter.batches::toString);
            assertTrue(counter.batches.size() < count / 2, "waiting datagrams are read in batches, not one by one: "
                    + counter.batches);
        }
    }

    @Test
    void shouldIgnoreLeavingAGroupItNeverJoined() throws Exception {
        try (DaemonTransport transport = new DaemonTransport(config(freeUdpPort()))) {
            transport.start(new Inbox());
            assertEquals(0, (int) onLoop(transport, () -> {
                transport.leaveGroup(42);
                return transport.joinedGroups();
            }));
        }
    }

    // ------------------------------------------------------------------ group sockets (multicast on the loopback)

    /** Records each datagram's text, as many times as it arrives. */
    @ChannelHandler.Sharable
    private static final class Texts extends SimpleChannelInboundHandler<DatagramPacket> {
        final java.util.Map<String, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            seen.merge(packet.content().toString(java.nio.charset.StandardCharsets.US_ASCII), 1, Integer::sum);
        }
    }

    private static final int GROUPS = 10;
    private static final int LIMIT = 3;

    private static InetSocketAddress groupAddress(int group, int port) {
        return new InetSocketAddress("239.192." + (77 + group / 250) + "." + (group % 250 + 1), port);
    }

    /** Multicasts on the loopback interface, TTL 0: the datagrams never leave this host. */
    private static java.net.MulticastSocket multicastSender() throws Exception {
        java.net.MulticastSocket sender = new java.net.MulticastSocket(0);
        sender.setNetworkInterface(java.net.NetworkInterface.getByName("lo"));
        sender.setTimeToLive(0);
        return sender;
    }

    private static void send(java.net.MulticastSocket sender, InetSocketAddress to, String text) throws Exception {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        sender.send(new java.net.DatagramPacket(bytes, bytes.length, to));
    }

    /** Polls until every text in {@code wanted} was seen, re-sending the missing ones; false after 10 s. */
    private static boolean awaitSeen(Texts texts, java.net.MulticastSocket sender,
                                     java.util.Map<String, InetSocketAddress> wanted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (java.util.Map.Entry<String, InetSocketAddress> e : wanted.entrySet()) {
                if (!texts.seen.containsKey(e.getKey())) {
                    all = false;
                    send(sender, e.getValue(), e.getKey());
                }
            }
            if (all) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /**
     * Sends {@code round}-GROUP to every group once, then a marker to every joined group until all markers came
     * back: each socket is read in order and every socket holds a joined group, so by then everything of the round
     * that any socket got has reached the handler.
     */
    private static void sendRound(Texts texts, java.net.MulticastSocket sender, int port, String round,
                                  java.util.Set<Integer> joined) throws Exception {
        for (int g = 0; g < GROUPS; g++) {
            send(sender, groupAddress(g, port), round + "-" + g);
        }
        java.util.Map<String, InetSocketAddress> markers = new java.util.HashMap<>();
        for (int g : joined) {
            markers.put(round + "-marker-" + g, groupAddress(g, port));
        }
        assertTrue(awaitSeen(texts, sender, markers), "markers of round " + round + " did not all come back");
    }

    private static void awaitEveryGroup(Texts texts, java.net.MulticastSocket sender, int port, int groups)
            throws Exception {
        java.util.Map<String, InetSocketAddress> ready = new java.util.HashMap<>();
        for (int g = 0; g < groups; g++) {
            ready.put("ready-" + g, groupAddress(g, port));
        }
        assertTrue(awaitSeen(texts, sender, ready), "not every group received: " + texts.seen.keySet());
    }

    private DaemonTransport groupTransport(String kind, int unicastPort, int limit) throws Exception {
        return groupTransport(kind, unicastPort, limit, Map.of());
    }

    private DaemonTransport groupTransport(String kind, int unicastPort, int limit, Map<String, String> more)
            throws Exception {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("node-id", "1", "interface", "lo",
                "address", "127.0.0.1", "unicast-port", Integer.toString(unicastPort), "gms", "127.0.0.1:1",
                "transport", kind, "insecure", "on"));
        settings.putAll(more);
        return new DaemonTransport(DaemonSettings.resolve(new Properties(), "test", settings), limit);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"nio", "epoll"})
    void shouldTellWhenTheKernelHasTakenAGroupsMembershipAndNotBefore(String kind) throws Exception {
        int port = freeUdpPort();
        try (DaemonTransport transport = groupTransport(kind, freeUdpPort(), LIMIT);
             java.net.MulticastSocket sender = multicastSender()) {
            Texts texts = new Texts();
            transport.start(texts);
            java.util.concurrent.atomic.AtomicBoolean listening = new java.util.concurrent.atomic.AtomicBoolean();
            boolean atOnce = onLoop(transport, () -> {
                transport.joinGroup(1, groupAddress(1, port));
                transport.whenListening(1, () -> listening.set(true));
                return listening.get();
            });
            assertFalse(atOnce, "the bind and the kernel's join are still to come");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!listening.get() && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertTrue(listening.get(), "told once the membership is in place");
            // From then on the group's traffic arrives: the first datagram sent is received.
            send(sender, groupAddress(1, port), "first");
            long arrival = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!texts.seen.containsKey("first") && System.nanoTime() - arrival < 0) {
                Thread.sleep(5);
            }
            assertTrue(texts.seen.containsKey("first"), "a datagram sent after the answer is received");
            boolean again = onLoop(transport, () -> {
                java.util.concurrent.atomic.AtomicBoolean now = new java.util.concurrent.atomic.AtomicBoolean();
                transport.whenListening(1, () -> now.set(true));
                transport.whenListening(2, () -> { }); // a group not being joined: at once, nothing kept
                return now.get();
            });
            assertTrue(again, "a group already listened to: at once");
        }
    }

    @Test
    void shouldGiveAGroupSocketTheBufferOfOneSocketPerGroup() throws Exception {
        int port = freeUdpPort();
        int perGroup = 65_536;
        try (DaemonTransport transport = groupTransport("epoll", freeUdpPort(), LIMIT,
                Map.of("socket-rcvbuf", Integer.toString(perGroup)))) {
            transport.start(new Texts());
            onLoop(transport, () -> {
                for (int g = 0; g < LIMIT; g++) {
                    transport.joinGroup(g, groupAddress(g, port));
                }
                return null;
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            int buffer = onLoop(transport, () -> transport.groupSocketReceiveBuffer(0));
            while (buffer < LIMIT * perGroup && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
                buffer = onLoop(transport, () -> transport.groupSocketReceiveBuffer(0));
            }
            assertEquals(1, (int) onLoop(transport, transport::groupSockets));
            assertTrue(buffer >= LIMIT * perGroup, LIMIT + " groups of " + perGroup + " bytes each on one socket: "
                    + buffer + " bytes of buffer");
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"nio", "epoll"})
    void shouldDeliverEveryJoinedGroupOnceOverFewSocketsAndStopOnlyTheGroupLeft(String kind) throws Exception {
        io.ricochet.support.Platform.need(kind.equals("nio") || io.netty.channel.epoll.Epoll.isAvailable(),
                "native epoll is not available here");
        int port = freeUdpPort();
        Texts texts = new Texts();
        try (DaemonTransport transport = groupTransport(kind, freeUdpPort(), LIMIT);
             java.net.MulticastSocket sender = multicastSender()) {
            transport.start(texts);
            java.util.Set<Integer> joined = new java.util.TreeSet<>();
            onLoop(transport, () -> {
                for (int g = 0; g < GROUPS; g++) {
                    transport.joinGroup(g, groupAddress(g, port));
                    joined.add(g);
                }
                return null;
            });
            // NIO cannot turn IP_MULTICAST_ALL off, so it keeps one socket per address; epoll fills each to LIMIT.
            int sockets = kind.equals("nio") ? GROUPS : (GROUPS + LIMIT - 1) / LIMIT;
            assertEquals(sockets, (int) onLoop(transport, transport::groupSockets));
            awaitEveryGroup(texts, sender, port, GROUPS);

            sendRound(texts, sender, port, "all", joined);
            for (int g = 0; g < GROUPS; g++) {
                assertEquals(1, texts.seen.getOrDefault("all-" + g, 0), "group " + g + " delivered once");
            }

            // Group 1 shares its socket with groups 0 and 2 (epoll): leaving it must not silence them.
            onLoop(transport, () -> {
                transport.leaveGroup(1);
                return null;
            });
            // The kernel's membership is dropped on the sockets' loop (the receive thread's): once it has run what
            // it was handed, the group is left.
            transport.receiveLoop().submit(() -> { }).get(5, TimeUnit.SECONDS);
            joined.remove(1);
            sendRound(texts, sender, port, "left", joined);
            for (int g = 0; g < GROUPS; g++) {
                assertEquals(g == 1 ? 0 : 1, texts.seen.getOrDefault("left-" + g, 0), "group " + g);
            }
            assertEquals(GROUPS - 1, (int) onLoop(transport, transport::joinedGroups));
        }
    }

    @Test
    void shouldHoldOneMembershipForManyGroupsOfOneRegionAndMoveWhenTheRegionChanges() throws Exception {
        int port = freeUdpPort();
        InetSocketAddress region = groupAddress(500, port);
        InetSocketAddress other = groupAddress(501, port);
        Map<Integer, InetSocketAddress> members = Map.of(1, new InetSocketAddress("127.0.0.1", 7001),
                2, new InetSocketAddress("127.0.0.1", 7002));
        Map<Integer, Long> incarnations = Map.of(1, 1L, 2, 1L);
        try (DaemonTransport transport = groupTransport("nio", freeUdpPort(), 1)) {
            transport.start(new Texts());
            ViewReconciler views = new ViewReconciler(1, transport, e -> { });
            int[] counts = onLoop(transport, () -> {
                for (int g = 0; g < 200; g++) {
                    GroupView view = new GroupView(g, 0, 1L,
                            groupAddress(g, port), members, incarnations,
                            List.of(new ViewRegion(region, List.of(1, 2))));
                    views.applyView(g, view.listenAddress(1), view.destinations(), view.members(),
                            view.incarnations());
                }
                int[] c = {transport.joinedGroups(), transport.memberships(), transport.groupSockets(), 0, 0};
                views.applyView(7, other, List.of(other), members, incarnations); // group 7 moves
                c[3] = transport.memberships();
                c[4] = transport.joinedGroups();
                return c;
            });
            assertArrayEquals(new int[] {200, 1, 1, 2, 200}, counts, "groups, memberships, sockets; after the move");
        }
    }

    @Test
    void shouldCloseAGroupSocketOnlyWhenItsLastGroupLeaves() throws Exception {
        io.ricochet.support.Platform.need(io.netty.channel.epoll.Epoll.isAvailable(),
                "native epoll is not available here");
        int port = freeUdpPort();
        try (DaemonTransport transport = groupTransport("epoll", freeUdpPort(), LIMIT)) {
            transport.start(new Texts());
            assertEquals(LIMIT, transport.membershipsPerSocket());
            int[] sockets = onLoop(transport, () -> {
                int[] counts = new int[4];
                for (int g = 0; g < 4; g++) {
                    transport.joinGroup(g, groupAddress(g, port)); // groups 0-2 on socket 0, group 3 on socket 1
                }
                counts[0] = transport.groupSockets();
                transport.leaveGroup(3);
                counts[1] = transport.groupSockets();
                transport.leaveGroup(0);
                transport.leaveGroup(1);
                counts[2] = transport.groupSockets();
                transport.leaveGroup(2);
                counts[3] = transport.groupSockets();
                return counts;
            });
            assertArrayEquals(new int[] {2, 1, 1, 0}, sockets);
        }
    }

    /** The kernel's limit of memberships per socket, as cat(1) reads it; Linux's default where there is none. */
    private static int systemLimit() throws Exception {
        if (!java.nio.file.Files.isReadable(DaemonTransport.MAX_MEMBERSHIPS_SYSCTL)) {
            return DaemonTransport.DEFAULT_MAX_MEMBERSHIPS;
        }
        Process cat = new ProcessBuilder("cat", DaemonTransport.MAX_MEMBERSHIPS_SYSCTL.toString()).start();
        int limit = Integer.parseInt(new String(cat.getInputStream().readAllBytes(),
                java.nio.charset.StandardCharsets.US_ASCII).strip());
        assertEquals(0, cat.waitFor());
        return limit;
    }

    /** More groups than the kernel lets one socket join: the joins past the limit must go to a second socket. */
    @Test
    void shouldReceiveMoreGroupsThanTheSystemLetsOneSocketJoin() throws Exception {
        io.ricochet.support.Platform.need(io.netty.channel.epoll.Epoll.isAvailable(),
                "native epoll is not available here");
        int port = freeUdpPort();
        Texts texts = new Texts();
        try (DaemonTransport transport = groupTransport("epoll", freeUdpPort(), -1);
             java.net.MulticastSocket sender = multicastSender()) {
            int groups = systemLimit() + 5;
            io.ricochet.support.Platform.need(groups <= 1000, () -> DaemonTransport.MAX_MEMBERSHIPS_SYSCTL + " is "
                    + (groups - 5) + ": this test joins that many groups and 5 more, at most 1000 (Linux's default "
                    + "limit is 20)");
            transport.start(texts);
            onLoop(transport, () -> {
                for (int g = 0; g < groups; g++) {
                    transport.joinGroup(g, groupAddress(g, port));
                }
                return null;
            });
            assertEquals(2, (int) onLoop(transport, transport::groupSockets));
            awaitEveryGroup(texts, sender, port, groups);
        }
    }

    @Test
    void shouldTakeTheMembershipLimitFromTheSystemUnlessGiven() throws Exception {
        io.ricochet.support.Platform.need(io.netty.channel.epoll.Epoll.isAvailable(),
                "native epoll is not available here");
        int expected = systemLimit();
        try (DaemonTransport transport = groupTransport("epoll", freeUdpPort(), -1)) {
            assertEquals(expected, transport.membershipsPerSocket());
        }
        try (DaemonTransport transport = groupTransport("nio", freeUdpPort(), -1)) {
            assertEquals(1, transport.membershipsPerSocket());
        }
    }
}
