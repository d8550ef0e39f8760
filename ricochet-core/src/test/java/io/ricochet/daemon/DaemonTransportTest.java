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
