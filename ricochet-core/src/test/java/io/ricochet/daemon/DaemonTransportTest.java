package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The daemon's unicast socket on the loopback: datagrams in reach the handler, sends go out once flushed. */
class DaemonTransportTest {

    @ChannelHandler.Sharable
    private static final class Inbox extends SimpleChannelInboundHandler<DatagramPacket> {
        final BlockingQueue<byte[]> received = new ArrayBlockingQueue<>(16);

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
        return DaemonSettings.resolve(new Properties(), "test", Map.of("node-id", "1", "interface", "lo",
                "address", "127.0.0.1", "unicast-port", Integer.toString(port), "gms", "127.0.0.1:1",
                "transport", "nio", "insecure", "on"));
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

    @Test
    void shouldHandDatagramsToTheHandlerAndSendQueuedOnesOnFlush() throws Exception {
        int port = freeUdpPort();
        Inbox inbox = new Inbox();
        try (DaemonTransport transport = new DaemonTransport(config(port));
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
                transport.send(to, out, 0, out.length);
                transport.flush();
                return null;
            });
            peer.setSoTimeout(5_000);
            java.net.DatagramPacket got = new java.net.DatagramPacket(new byte[16], 16);
            peer.receive(got);
            assertEquals(3, got.getLength());
            assertEquals(port, got.getPort(), "sent from the unicast socket");
            assertArrayEquals(out, java.util.Arrays.copyOf(got.getData(), got.getLength()));
        }
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
        org.junit.jupiter.api.Assumptions.assumeTrue(kind.equals("nio") || io.netty.channel.epoll.Epoll.isAvailable(),
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
            // The event loop is held while the datagrams wait in the kernel, as when the engine is busy.
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            transport.loop().execute(() -> {
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
            onLoop(transport, () -> null); // the last batch's channelReadComplete has run
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
}
