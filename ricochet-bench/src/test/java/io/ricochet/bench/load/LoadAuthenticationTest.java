package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.DatagramClock;
import io.ricochet.auth.ReplayFilter;
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
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load generator authenticates as a daemon does: what it sends opens with a daemon's guard of the cluster key
 * (and with no other key), its DATA trailer is a valid origin seal of the packet, and it answers only authentic NAKs,
 * with sealed answers. Over loopback, no root.
 */
class LoadAuthenticationTest {
    private static final int SELF = 7;
    private static final int DAEMON = 1;
    private static final int GROUP = 100;
    private static final int PAYLOAD = 1024;

    private final ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), 1);
    private final ClusterKeys otherKeys = ClusterKeys.generate(new SecureRandom(), 1);
    private EventLoopGroup loop;
    private DatagramChannel daemon;
    private RetransmitRing ring;
    private FrameSource source;
    private LoadInbound inbound;
    private LoadSocket socket;

    @BeforeEach
    void setUp() throws Exception {
        loop = new NioEventLoopGroup(1);
        InetAddress lo = InetAddress.getLoopbackAddress();
        daemon = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
        daemon.socket().setSoTimeout(10_000);
        ring = new RetransmitRing(1, 4, DataFlyweight.DATA_HEADER_LENGTH + PAYLOAD);
        source = new FrameSource(SELF, new int[] {GROUP}, PAYLOAD, ring);
        Authentication auth = Authentication.with(keys);
        InetSocketAddress registered = (InetSocketAddress) daemon.getLocalAddress();
        inbound = new LoadInbound(new NakAnswerer(SELF, new int[] {GROUP}, ring),
                node -> node == DAEMON ? registered : null, auth.newGuard(SELF));
        socket = new LoadSocket(loop, NetworkInterface.getByName("lo"), new InetSocketAddress(lo, 0), 1 << 16, true,
                false, auth.newGuard(SELF), inbound);
        loop.submit(() -> inbound.answerOn(socket)).get();
    }

    @AfterEach
    void tearDown() throws Exception {
        socket.close();
        daemon.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Test
    void aSentDataFrameOpensWithTheClusterKeyOnlyAndIsItsOwnOriginSeal() throws Exception {
        InetSocketAddress to = (InetSocketAddress) daemon.getLocalAddress();
        loop.submit(() -> {
            int slot = source.next();
            socket.send(to, ring.frame(slot), ring.length(slot));
            socket.flush();
        }).get();
        byte[] datagram = receive(daemon);
        assertNotNull(datagram, "the DATA datagram arrives");
        int frameLength = DataFlyweight.DATA_HEADER_LENGTH + PAYLOAD;
        assertEquals(frameLength + DatagramAuth.TRAILER_LENGTH, datagram.length, "the frame, then the trailer");
        assertTrue(datagram.length <= 1500 - 28, "fits a 1500-byte IP packet");
        assertEquals(DatagramAuth.BAD_TAG, new DatagramAuth(otherKeys).open(datagram.clone(), 0, datagram.length),
                "another key does not open it");
        assertEquals(frameLength, new DatagramAuth(keys).open(datagram, 0, datagram.length),
                "a daemon's guard of the cluster key opens it");
        DataFlyweight data = new DataFlyweight().wrap(datagram, 0);
        assertEquals(FrameType.DATA, data.type());
        assertTrue(Authentication.with(keys).newOriginSeals().verify(SELF, GROUP, 0, datagram, data.payloadOffset(),
                data.payloadLength(), datagram, frameLength),
                "its trailer is the origin seal a daemon checks a rebuilt packet against: the frame is a daemon's");
    }

    @Test
    void anAuthenticNakGetsASealedAnswerAndAnyOtherNone() throws Exception {
        loop.submit(source::next).get(); // seqno 0 is in the ring
        InetSocketAddress generator = socket.localAddress();
        DatagramAuth daemonGuard = new DatagramAuth(keys, DatagramClock.system(),
                new ReplayFilter(30_000, System::currentTimeMillis), DAEMON);

        byte[] sealedNak = nak(0, new DatagramAuth(keys));
        daemon.send(ByteBuffer.wrap(sealedNak), generator);
        byte[] retransmit = receive(daemon);
        assertNotNull(retransmit, "an authentic NAK is answered");
        int length = daemonGuard.open(retransmit, 0, retransmit.length);
        assertEquals(retransmit.length - DatagramAuth.TRAILER_LENGTH, length, "the RETRANSMIT is sealed");
        assertEquals(FrameType.RETRANSMIT, new DataFlyweight().wrap(retransmit, 0).type());

        daemon.send(ByteBuffer.wrap(nak(3, new DatagramAuth(keys))), generator);
        byte[] gone = receive(daemon);
        assertNotNull(gone, "a NAK for a packet never sent is answered GONE");
        assertTrue(daemonGuard.open(gone, 0, gone.length) > 0, "the GONE is sealed");
        assertEquals(FrameType.GONE, new PacketRefFlyweight().wrap(gone, 0).type());

        daemon.socket().setSoTimeout(300);
        daemon.send(ByteBuffer.wrap(sealedNak), generator);
        assertNull(receive(daemon), "a replayed NAK gets no answer");
        daemon.send(ByteBuffer.wrap(nak(0, new DatagramAuth(otherKeys))), generator);
        assertNull(receive(daemon), "a NAK sealed with another key gets no answer");
        daemon.send(ByteBuffer.wrap(nak(1, new DatagramAuth(keys), SELF + 1)), generator);
        assertNull(receive(daemon), "a NAK sealed for another process gets no answer");
        byte[] plain = new byte[PacketRefFlyweight.NAK_LENGTH];
        new PacketRefFlyweight().wrap(plain, 0).write(FrameType.NAK, DAEMON, SELF, GROUP, 0);
        daemon.send(ByteBuffer.wrap(plain), generator);
        assertNull(receive(daemon), "an unsealed NAK gets no answer");
        loop.submit(() -> {
            assertEquals(2, inbound.naks());
            assertEquals(4, inbound.unauthentic());
        }).get();
    }

    /** A NAK from the daemon for seqno {@code seqno} of this generator, sealed by {@code guard} for it. */
    private static byte[] nak(long seqno, DatagramAuth guard) {
        return nak(seqno, guard, SELF);
    }

    /** A NAK from the daemon for seqno {@code seqno} of this generator, sealed for {@code destination}. */
    private static byte[] nak(long seqno, DatagramAuth guard, int destination) {
        byte[] datagram = new byte[PacketRefFlyweight.NAK_LENGTH + DatagramAuth.TRAILER_LENGTH];
        int frame = new PacketRefFlyweight().wrap(datagram, 0).write(FrameType.NAK, DAEMON, SELF, GROUP, seqno);
        return Arrays.copyOf(datagram, guard.seal(datagram, 0, frame, destination));
    }

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
