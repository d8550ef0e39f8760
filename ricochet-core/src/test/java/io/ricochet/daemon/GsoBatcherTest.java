package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.ricochet.support.Platform;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GSO runs on loopback epoll sockets: whatever the mix of lengths and addresses, each receiver gets exactly the
 * datagrams sent to it, in the order they were queued, one datagram per frame.
 */
class GsoBatcherTest {
    private static final int PEERS = GsoBatcher.MAX_OPEN + 2;

    private EventLoopGroup loop;
    private Channel channel;
    private final List<DatagramSocket> peers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        Platform.need(Epoll.isAvailable(), "native epoll (Linux)");
        Platform.need(GsoBatcher.unavailable(true) == null, "UDP GSO in this kernel");
        loop = new EpollEventLoopGroup(1);
        channel = new Bootstrap().group(loop).channel(EpollDatagramChannel.class)
                .handler(new ChannelInboundHandlerAdapter())
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        for (int i = 0; i < PEERS; i++) {
            DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            peer.setReceiveBufferSize(4 << 20);
            peer.setSoTimeout(200);
            peers.add(peer);
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        peers.forEach(DatagramSocket::close);
        if (channel != null) {
            channel.close().sync();
        }
        if (loop != null) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    @Test
    void everyDatagramArrivesAloneAndInOrderAtItsAddress() throws Exception {
        List<List<byte[]>> expected = new ArrayList<>();
        for (int i = 0; i < PEERS; i++) {
            expected.add(new ArrayList<>());
        }
        List<Integer> to = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        int index = 0;
        // Runs to peer 0 and 1 interleaved, a length change in the middle, a run longer than one send may carry,
        // a datagram too long to share a send, then more addresses than runs kept open at once.
        for (int i = 0; i < 5; i++) {
            frames.add(frame(index++, 100));
            to.add(i % 2);
        }
        frames.add(frame(index++, 40));
        to.add(0);
        for (int i = 0; i < GsoBatcher.MAX_SEGMENTS + 6; i++) {
            frames.add(frame(index++, 300));
            to.add(1);
        }
        frames.add(frame(index++, 40_000));
        to.add(1);
        frames.add(frame(index++, 300));
        to.add(1);
        for (int i = 0; i < 3 * PEERS; i++) {
            frames.add(frame(index++, 200));
            to.add(i % PEERS);
        }
        for (int i = 0; i < frames.size(); i++) {
            expected.get(to.get(i)).add(frames.get(i));
        }
        GsoBatcher gso = new GsoBatcher(channel);
        channel.eventLoop().submit(() -> {
            for (int i = 0; i < frames.size(); i++) {
                byte[] f = frames.get(i);
                gso.add(address(to.get(i)), f, 0, f.length);
            }
            gso.endRuns();
            channel.flush();
        }).sync();

        for (int p = 0; p < PEERS; p++) {
            DatagramSocket peer = peers.get(p);
            peer.setSoTimeout(10_000);
            for (int i = 0; i < expected.get(p).size(); i++) {
                assertArrayEquals(expected.get(p).get(i), receive(peer), "peer " + p + ", datagram " + i);
            }
            peer.setSoTimeout(50);
            assertNull(receive(peer), "peer " + p + " got nothing more");
        }
        long runs = channel.eventLoop().submit(gso::runs).get();
        long inRuns = channel.eventLoop().submit(gso::runDatagrams).get();
        assertTrue(runs > 0 && inRuns > 2 * runs - 1, runs + " runs of " + inRuns + " datagrams");
        assertTrue(inRuns < frames.size(), "the long datagram and the lone ones went alone");
    }

    @Test
    void onlyAnEpollSocketTakesGso() {
        assertEquals("UDP GSO needs the epoll transport (Linux)", GsoBatcher.unavailable(new EmbeddedChannel()));
        assertNull(GsoBatcher.unavailable(channel));
        assertThrows(IllegalArgumentException.class, () -> new GsoBatcher(new EmbeddedChannel()));
    }

    private InetSocketAddress address(int peer) {
        return (InetSocketAddress) peers.get(peer).getLocalSocketAddress();
    }

    /** The next datagram at {@code peer} within its timeout, or null. */
    private static byte[] receive(DatagramSocket peer) throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[65_536], 65_536);
        try {
            peer.receive(p);
            return Arrays.copyOf(p.getData(), p.getLength());
        } catch (java.net.SocketTimeoutException e) {
            return null;
        }
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
