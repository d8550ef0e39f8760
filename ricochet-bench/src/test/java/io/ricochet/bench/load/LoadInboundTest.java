package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.ricochet.auth.Authentication;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A NAK's answer goes to the unicast address its source registered, not to the port the NAK came from: a daemon
 * with a receive thread sends from a socket nothing reads.
 */
class LoadInboundTest {
    private static final int SELF = 7;
    private static final int DAEMON = 1;
    private static final int GROUP = 100;

    private EventLoopGroup loop;
    private DatagramChannel daemonSends;
    private DatagramChannel daemonReceives;

    @BeforeEach
    void setUp() throws Exception {
        loop = new NioEventLoopGroup(1);
        InetAddress lo = InetAddress.getLoopbackAddress();
        daemonSends = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
        daemonReceives = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
        daemonSends.socket().setSoTimeout(200);
        daemonReceives.socket().setSoTimeout(200);
    }

    @AfterEach
    void tearDown() throws Exception {
        daemonSends.close();
        daemonReceives.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Test
    void theAnswerGoesToTheRegisteredAddressAndAStrangerGetsNone() throws Exception {
        RetransmitRing ring = new RetransmitRing(1, 4, DataFlyweight.DATA_HEADER_LENGTH + 10);
        FrameSource source = new FrameSource(SELF, new int[] {GROUP}, 10, ring);
        source.next();
        InetSocketAddress registered = (InetSocketAddress) daemonReceives.getLocalAddress();
        LoadInbound inbound = new LoadInbound(new NakAnswerer(SELF, new int[] {GROUP}, ring),
                node -> node == DAEMON ? registered : null, Authentication.insecure().newGuard(SELF));
        try (LoadSocket socket = new LoadSocket(loop, NetworkInterface.getByName("lo"),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1 << 16, true, false,
                Authentication.insecure().newGuard(SELF), inbound)) {
            loop.submit(() -> inbound.answerOn(socket)).get();
            InetSocketAddress generator = socket.localAddress();

            daemonSends.send(ByteBuffer.wrap(nak(DAEMON, 0)), generator);
            daemonReceives.socket().setSoTimeout(10_000);
            byte[] answer = receive(daemonReceives);
            daemonReceives.socket().setSoTimeout(200);
            assertNotNull(answer, "the answer reaches the registered address");
            assertEquals(FrameType.RETRANSMIT, new DataFlyweight().wrap(answer, 0).type());
            assertNull(receive(daemonSends), "nothing goes back to the NAK's source port");

            daemonSends.send(ByteBuffer.wrap(nak(DAEMON + 1, 0)), generator);
            assertNull(receive(daemonSends), "a node no view lists gets no answer");
            assertNull(receive(daemonReceives), "a node no view lists gets no answer");
            loop.submit(() -> {
                assertEquals(2, inbound.naks());
                assertEquals(1, inbound.naksFromStrangers());
            }).get();
        }
    }

    private static byte[] nak(int from, long seqno) {
        byte[] frame = new byte[PacketRefFlyweight.NAK_LENGTH];
        new PacketRefFlyweight().wrap(frame, 0).write(FrameType.NAK, from, SELF, GROUP, seqno);
        return frame;
    }

    /** The next datagram at {@code channel} within its socket's timeout, or null if none came. */
    private static byte[] receive(DatagramChannel channel) throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
        try {
            channel.socket().receive(p);
            return Arrays.copyOf(p.getData(), p.getLength());
        } catch (SocketTimeoutException e) {
            return null;
        }
    }
}
