package io.ricochet.daemon;

import io.ricochet.control.verdict.DetectorAddresses;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeartbeatFlyweight;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat thread's answer: an ACK while the engine shows progress, nothing once it has stalled; with detectors
 * listed, only at the listed address of the heartbeat's detector.
 */
class HeartbeatResponderTest {
    private static final long MS = 1_000_000L;
    /** A heartbeat or ack with its authentication trailer. */
    private static final int SEALED = HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH;
    /** Where heartbeats come from (detector 40, or rack-1 where detectors are listed) unless a test says otherwise. */
    private static final InetSocketAddress DETECTOR = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7200);
    private final AtomicLong now = new AtomicLong(1_000 * MS);
    private final HeartbeatResponder responder = new HeartbeatResponder(7, 500 * MS, now::get,
            Authentication.insecure(), DetectorAddresses.NONE);
    private final byte[] ack = new byte[HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH];

    private static byte[] ping(long sequence) {
        return ping(40, sequence);
    }

    private static byte[] ping(int detector, long sequence) {
        byte[] ping = new byte[HeartbeatFlyweight.LENGTH];
        new HeartbeatFlyweight().wrap(ping, 0).write(FrameType.HEARTBEAT, detector, sequence, 123);
        return ping;
    }

    /** {@code responder}'s answer to the whole heartbeat {@code ping}, received from {@link #DETECTOR}. */
    private int answer(HeartbeatResponder r, byte[] ping) {
        return r.answer(ping, HeartbeatFlyweight.LENGTH, DETECTOR, ack);
    }

    @Test
    void shouldAnswerWhileTheEngineShowsProgressAndWithholdOnceItStalls() {
        assertEquals(HeartbeatFlyweight.LENGTH, answer(responder, ping(1)));
        HeartbeatFlyweight answer = new HeartbeatFlyweight().wrap(ack, 0);
        assertEquals(FrameType.HEARTBEAT_ACK, answer.type());
        assertEquals(7, answer.source());
        assertEquals(1, answer.sequence());
        assertEquals(123, answer.sendTimeNs());

        now.addAndGet(501 * MS);
        assertEquals(0, answer(responder, ping(2)), "no progress for 501 ms");
        responder.engineAlive();
        assertEquals(HeartbeatFlyweight.LENGTH, answer(responder, ping(3)));
        assertEquals(DETECTOR, responder.replyTo(), "with no detector listed, to the heartbeat's source address");
        assertArrayEquals(new long[] {2, 1, 0, 0, 0, 0, 0}, responder.counts());
    }

    @Test
    void shouldAnswerOnlyAnAuthenticHeartbeatAndSealItsAck() {
        ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), 3);
        Authentication auth = Authentication.with(keys);
        HeartbeatResponder sealed = new HeartbeatResponder(7, 500 * MS, now::get, auth, DetectorAddresses.NONE);
        byte[] datagram = java.util.Arrays.copyOf(ping(1), DatagramAuth.MAX_DATAGRAM_LENGTH);
        assertEquals(0, sealed.answer(datagram, HeartbeatFlyweight.LENGTH, DETECTOR, ack), "no trailer: refused");
        int length = auth.newGuard(40).seal(datagram, 0, HeartbeatFlyweight.LENGTH, 7);
        int ackLength = sealed.answer(datagram, length, DETECTOR, ack);
        assertEquals(HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH, ackLength);
        assertEquals(HeartbeatFlyweight.LENGTH, auth.newGuard(40).open(ack, 0, ackLength),
                "the ack is sealed for the detector that sent the heartbeat (source 40)");
        byte[] replay = datagram.clone();
        assertEquals(0, sealed.answer(replay, length, DETECTOR, ack),
                "the same heartbeat again: a replay, unanswered");
        datagram[20] ^= 1;
        assertEquals(0, sealed.answer(datagram, length, DETECTOR, ack), "a flipped bit: refused");
        assertArrayEquals(new long[] {1, 0, 2, 1, 0, 0, 0}, sealed.counts());
        byte[] forAnother = java.util.Arrays.copyOf(ping(2), DatagramAuth.MAX_DATAGRAM_LENGTH);
        int otherLength = auth.newGuard(40).seal(forAnother, 0, HeartbeatFlyweight.LENGTH, 8);
        assertEquals(0, sealed.answer(forAnother, otherLength, DETECTOR, ack),
                "a heartbeat sealed for daemon 8: refused");
        assertArrayEquals(new long[] {1, 0, 3, 1, 0, 0, 0}, sealed.counts());
    }

    @Test
    void shouldAnswerAListedDetectorOnlyAtItsListedAddressAndCountWhatCameFromElsewhere() {
        ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), 3);
        Authentication auth = Authentication.with(keys);
        int rack1 = HeartbeatFlyweight.detectorWireId("rack-1");
        HeartbeatResponder listing = new HeartbeatResponder(7, 500 * MS, now::get, auth,
                DetectorAddresses.parse("rack-1@127.0.0.1:7200,standby-1@127.0.0.2:7201"));

        int ackLength = listing.answer(sealed(auth, rack1, 1), SEALED, DETECTOR, ack);
        assertEquals(SEALED, ackLength);
        assertEquals(DETECTOR, listing.replyTo(), "from its listed address: answered there");
        assertEquals(HeartbeatFlyweight.LENGTH, auth.newGuard(rack1).open(ack, 0, ackLength),
                "sealed for rack-1, the detector whose id the heartbeat carries");

        InetSocketAddress victim = new InetSocketAddress("10.9.9.9", 9999);
        assertEquals(SEALED, listing.answer(sealed(auth, rack1, 2), SEALED, victim, ack));
        assertEquals(DETECTOR, listing.replyTo(), "a rewritten source address: answered at the listed one, never "
                + "at the address the datagram claims");

        int unlisted = HeartbeatFlyweight.detectorWireId("rack-9");
        assertEquals(0, listing.answer(sealed(auth, unlisted, 3), SEALED, DETECTOR, ack),
                "an authentic heartbeat of a detector not listed: unanswered");
        assertNull(listing.replyTo());
        assertArrayEquals(new long[] {2, 0, 0, 0, 0, 1, 1}, listing.counts(),
                "answered 2, misdirected 1 (answered at the listed address), unlisted 1");
    }

    /** A HEARTBEAT of {@code detector} sealed for daemon 7, the responder here. */
    private static byte[] sealed(Authentication auth, int detector, long sequence) {
        byte[] datagram = java.util.Arrays.copyOf(ping(detector, sequence), DatagramAuth.MAX_DATAGRAM_LENGTH);
        assertEquals(SEALED, auth.newGuard(detector).seal(datagram, 0, HeartbeatFlyweight.LENGTH, 7));
        return datagram;
    }

    @Test
    void shouldSendNoDatagramToTheSourceAddressOfAHeartbeatWhenItsDetectorIsListedElsewhere() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int rack1 = HeartbeatFlyweight.detectorWireId("rack-1");
        try (DatagramSocket listed = new DatagramSocket(0, loopback);
             DatagramSocket spoofed = new DatagramSocket(0, loopback)) {
            InetSocketAddress heartbeatAddress = new InetSocketAddress(loopback, freeUdpPort(loopback));
            try (HeartbeatResponder listing = new HeartbeatResponder(7, 500 * MS, now::get,
                    Authentication.insecure(), DetectorAddresses.parse("rack-1@127.0.0.1:" + listed.getLocalPort()))) {
                listing.start(heartbeatAddress);
                // rack-1's heartbeat, its source address rewritten to 'spoofed' (here: sent from that socket).
                spoofed.send(new DatagramPacket(ping(rack1, 1), HeartbeatFlyweight.LENGTH, heartbeatAddress));
                listed.setSoTimeout(5_000);
                DatagramPacket answer = new DatagramPacket(new byte[64], 64);
                listed.receive(answer);
                HeartbeatFlyweight ackFrame = new HeartbeatFlyweight().wrap(answer.getData(), 0);
                assertEquals(FrameType.HEARTBEAT_ACK, ackFrame.type());
                assertEquals(7, ackFrame.source());
                assertEquals(1, ackFrame.sequence());

                // A detector not listed gets nothing either.
                spoofed.send(new DatagramPacket(ping(40, 2), HeartbeatFlyweight.LENGTH, heartbeatAddress));
                long deadline = System.nanoTime() + 5_000 * MS;
                while (listing.counts()[6] == 0 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(5);
                }
                spoofed.setSoTimeout(300);
                assertThrows(SocketTimeoutException.class, () -> spoofed.receive(new DatagramPacket(new byte[64], 64)),
                        "no datagram goes to the heartbeat's (rewritten) source address");
                assertArrayEquals(new long[] {1, 0, 0, 0, 0, 1, 1}, listing.counts());
            }
        }
    }

    private static int freeUdpPort(InetAddress address) throws java.io.IOException {
        try (DatagramSocket probe = new DatagramSocket(0, address)) {
            return probe.getLocalPort();
        }
    }

    @Test
    void shouldRefuseAnythingButAValidHeartbeat() {
        byte[] ackFrame = ping(1);
        ackFrame[3] = (byte) FrameType.HEARTBEAT_ACK;
        assertEquals(0, responder.answer(ackFrame, HeartbeatFlyweight.LENGTH, DETECTOR, ack));
        assertEquals(0, responder.answer(ping(1), HeartbeatFlyweight.LENGTH - 1, DETECTOR, ack), "truncated");
        assertEquals(0, responder.answer(new byte[3], 3, DETECTOR, ack), "shorter than a header");
        assertArrayEquals(new long[] {0, 0, 3, 0, 0, 0, 0}, responder.counts());
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
