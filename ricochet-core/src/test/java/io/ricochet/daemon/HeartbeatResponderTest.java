package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeartbeatFlyweight;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The heartbeat thread's answer: an ACK while the engine shows progress, nothing once it has stalled. */
class HeartbeatResponderTest {
    private static final long MS = 1_000_000L;
    private final AtomicLong now = new AtomicLong(1_000 * MS);
    private final HeartbeatResponder responder = new HeartbeatResponder(7, 500 * MS, now::get,
            Authentication.insecure());
    private final byte[] ack = new byte[HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH];

    private static byte[] ping(long sequence) {
        byte[] ping = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(ping, 0).write(FrameType.HEARTBEAT, 40, sequence, 123);
        return ping;
    }

    @Test
    void shouldAnswerWhileTheEngineShowsProgressAndWithholdOnceItStalls() {
        assertEquals(HeartbeatFlyweight.LENGTH, responder.answer(ping(1), HeartbeatFlyweight.LENGTH, ack));
        HeartbeatFlyweight answer = new HeartbeatFlyweight().wrap(ack, 0);
        assertEquals(FrameType.HEARTBEAT_ACK, answer.type());
        assertEquals(7, answer.source());
        assertEquals(1, answer.sequence());
        assertEquals(123, answer.sendTimeNs());

        now.addAndGet(501 * MS);
        assertEquals(0, responder.answer(ping(2), HeartbeatFlyweight.LENGTH, ack), "no progress for 501 ms");
        responder.engineAlive();
        assertEquals(HeartbeatFlyweight.LENGTH, responder.answer(ping(3), HeartbeatFlyweight.LENGTH, ack));
        assertArrayEquals(new long[] {2, 1, 0, 0, 0}, responder.counts());
    }

    @Test
    void shouldAnswerOnlyAnAuthenticHeartbeatAndSealItsAck() {
        ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), 3);
        Authentication auth = Authentication.with(keys);
        HeartbeatResponder sealed = new HeartbeatResponder(7, 500 * MS, now::get, auth);
        byte[] datagram = java.util.Arrays.copyOf(ping(1), DatagramAuth.MAX_DATAGRAM_LENGTH);
        assertEquals(0, sealed.answer(datagram, HeartbeatFlyweight.LENGTH, ack), "no trailer: refused");
        int length = auth.newGuard(40).seal(datagram, 0, HeartbeatFlyweight.LENGTH, 7);
        int ackLength = sealed.answer(datagram, length, ack);
        assertEquals(HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH, ackLength);
        assertEquals(HeartbeatFlyweight.LENGTH, auth.newGuard(40).open(ack, 0, ackLength),
                "the ack is sealed for the detector that sent the heartbeat (source 40)");
        byte[] replay = datagram.clone();
        assertEquals(0, sealed.answer(replay, length, ack), "the same heartbeat again: a replay, unanswered");
        datagram[20] ^= 1;
        assertEquals(0, sealed.answer(datagram, length, ack), "a flipped bit: refused");
        assertArrayEquals(new long[] {1, 0, 2, 1, 0}, sealed.counts());
        byte[] forAnother = java.util.Arrays.copyOf(ping(2), DatagramAuth.MAX_DATAGRAM_LENGTH);
        int otherLength = auth.newGuard(40).seal(forAnother, 0, HeartbeatFlyweight.LENGTH, 8);
        assertEquals(0, sealed.answer(forAnother, otherLength, ack), "a heartbeat sealed for daemon 8: refused");
        assertArrayEquals(new long[] {1, 0, 3, 1, 0}, sealed.counts());
    }

    @Test
    void shouldRefuseAnythingButAValidHeartbeat() {
        byte[] ackFrame = ping(1);
        ackFrame[3] = (byte) FrameType.HEARTBEAT_ACK;
        assertEquals(0, responder.answer(ackFrame, HeartbeatFlyweight.LENGTH, ack));
        assertEquals(0, responder.answer(ping(1), HeartbeatFlyweight.LENGTH - 1, ack), "truncated");
        assertEquals(0, responder.answer(new byte[3], 3, ack), "shorter than a header");
        assertArrayEquals(new long[] {0, 0, 3, 0, 0}, responder.counts());
    }

    @Test
    void shouldNameTheHeartbeatPortWhenItIsTaken() throws Exception {
        java.net.InetAddress loopback = java.net.InetAddress.getLoopbackAddress();
        try (java.net.DatagramSocket taken = new java.net.DatagramSocket(0, loopback)) {
            java.net.InetSocketAddress address = (java.net.InetSocketAddress) taken.getLocalSocketAddress();
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> responder.start(address));
            assertTrue(refused.getMessage().startsWith("cannot bind the heartbeat socket to 127.0.0.1:"
                    + address.getPort() + " (address, heartbeat-port): "), refused.getMessage());
            assertTrue(refused.getMessage().contains("another process"), refused.getMessage());
        }
    }
}
