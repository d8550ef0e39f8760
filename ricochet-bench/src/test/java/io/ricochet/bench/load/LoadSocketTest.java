package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The generator's socket on loopback: runs sent as GSO sends arrive as the datagrams they were made of. */
class LoadSocketTest {
    private EventLoopGroup loop;
    private DatagramChannel receiver;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Epoll.isAvailable(), "native epoll (Linux)");
        loop = new EpollEventLoopGroup(1);
        assumeTrue(LoadSocket.gsoUnavailable(true) == null, "UDP GSO in this kernel");
        receiver = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        receiver.configureBlocking(true);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (receiver != null) {
            receiver.close();
        }
        if (loop != null) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    @Test
    void everyFrameOfTheRunsArrivesAsItsOwnDatagramInOrder() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            frames.add(frame(i, 100));
        }
        frames.add(frame(5, 40));      // another length ends the run
        for (int i = 6; i < 6 + LoadSocket.MAX_SEGMENTS + 6; i++) {
            frames.add(frame(i, 300)); // longer than one GSO send may carry
        }
        InetSocketAddress to = (InetSocketAddress) receiver.getLocalAddress();
        try (LoadSocket socket = new LoadSocket(loop, NetworkInterface.getByName("lo"),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1 << 20, true, true,
                new ChannelInboundHandlerAdapter())) {
            loop.submit(() -> {
                for (byte[] f : frames) {
                    socket.send(to, f, f.length);
                }
                socket.flush();
            }).get();
            ByteBuffer in = ByteBuffer.allocate(70_000);
            for (int i = 0; i < frames.size(); i++) {
                in.clear();
                receiver.receive(in);
                in.flip();
                byte[] got = new byte[in.remaining()];
                in.get(got);
                assertArrayEquals(frames.get(i), got, "datagram " + i);
            }
        }
    }

    @Test
    void gsoNeedsTheEpollTransport() {
        assertEquals("UDP GSO needs the epoll transport (--transport epoll or auto, on Linux)",
                LoadSocket.gsoUnavailable(false));
        assertNull(LoadSocket.gsoUnavailable(true));
    }

    /** A frame of {@code length} bytes that says which it is. */
    private static byte[] frame(int index, int length) {
        byte[] f = new byte[length];
        for (int i = 0; i < length; i++) {
            f[i] = (byte) (index * 31 + i);
        }
        return f;
    }
}
