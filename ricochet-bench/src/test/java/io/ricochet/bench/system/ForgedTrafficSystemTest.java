package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.nak.NakCounter;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.HeartbeatFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import io.ricochet.wire.RepairFlyweight;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * An authenticated cluster (two daemons, their rack detector, one GMS partition, a key of the run's own) takes
 * forged datagrams: DATA, RETRANSMIT, REPAIR, NAK, GONE, SESSION and TAIL frames that name the real members and the
 * real group, sent to a daemon's socket without the trailer, sealed with another key under the cluster's key id,
 * and sealed under an unknown key id. Nothing may change but a counter: no delivery, no LOST, no retransmission, no
 * NAK taken; then genuine traffic still flows.
 */
class ForgedTrafficSystemTest {
    private static final int G = 30;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void shouldDropEveryForgedDatagramAtTheSocketAndChangeNothingElse() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("forged-traffic", 1);
             DatagramSocket attacker = new DatagramSocket()) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(2);
            cluster.startFd(List.of(1, 2));
            try (Traffic victim = new Traffic(1, false); Traffic peer = new Traffic(2, false)) {
                victim.join(G);
                peer.join(G);
                ProcessCluster.await(DEADLINE, "both in the group", () -> victim.members(G).contains(2));
                List<Traffic.Id> before = peer.send(G, 20);
                ProcessCluster.await(DEADLINE, "the genuine traffic", () -> before.stream()
                        .allMatch(victim.received::containsKey));
                int deliveredBefore = victim.received.size();
                long retransmitsBefore = victim.counter(NakCounter.RETRANSMITS_SENT);

                InetSocketAddress daemon1 = new InetSocketAddress("127.0.0.1", ProcessCluster.UNICAST_BASE_PORT + 1);
                List<byte[]> frames = forgedFrames();
                FrameGuard otherKey = Authentication.with(ClusterKeys.generate(new SecureRandom(), 1)).newGuard();
                FrameGuard unknownId = Authentication.with(ClusterKeys.generate(new SecureRandom(), 7)).newGuard();
                int sent = 0;
                for (byte[] frame : frames) {
                    for (FrameGuard guard : new FrameGuard[] {null, otherKey, unknownId}) {
                        byte[] datagram = java.util.Arrays.copyOf(frame, frame.length + DatagramAuth.TRAILER_LENGTH);
                        int length = guard == null ? frame.length : guard.seal(datagram, 0, frame.length);
                        attacker.send(new DatagramPacket(datagram, length, daemon1));
                        sent++;
                    }
                }
                int forged = sent;
                ProcessCluster.await(DEADLINE, "daemon 1 to count " + forged + " unauthentic datagrams",
                        () -> victim.counter(DaemonCounter.UNAUTHENTIC_DATAGRAMS) >= forged);

                assertEquals(forged, victim.counter(DaemonCounter.UNAUTHENTIC_DATAGRAMS));
                assertEquals(deliveredBefore, victim.received.size(), "nothing forged was delivered");
                assertEquals(0, victim.lost.size(), "no LOST from a forged announcement");
                assertEquals(0, victim.counter(NakCounter.NAKS_RECEIVED), "no forged NAK was taken");
                assertEquals(retransmitsBefore, victim.counter(NakCounter.RETRANSMITS_SENT), "nothing retransmitted");
                assertEquals(0, victim.counter(NakCounter.TAILS_RECEIVED));
                assertEquals(0, victim.counter(EngineCounter.INVALID_PACKETS), "not even read as a frame");
                assertTrue(victim.members(G).contains(2), "membership unchanged");

                List<Traffic.Id> after = peer.send(G, 20);
                ProcessCluster.await(DEADLINE, "genuine traffic after the forgeries", () -> after.stream()
                        .allMatch(victim.received::containsKey));
                assertEquals(0, victim.corrupt.get());
            }
        }
    }

    @Test
    void shouldNotLetAnImpostorKeepACrashedDaemonAliveWithUnauthenticatedAcks() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("forged-acks", 1)) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(2);
            cluster.startFd(List.of(1, 2));
            cluster.awaitLog("fd", "pinging");
            cluster.crash("daemon-2");
            // The impostor takes the crashed daemon's heartbeat port and answers every ping, echoing its sequence
            // and send time as a live daemon would, but without the cluster key.
            AtomicBoolean stop = new AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong answered = new java.util.concurrent.atomic.AtomicLong();
            Thread impostor = new Thread(() -> {
                try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1",
                        ProcessCluster.HEARTBEAT_BASE_PORT + 2))) {
                    socket.setSoTimeout(200);
                    byte[] in = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
                    byte[] ack = new byte[HeartbeatFlyweight.LENGTH];
                    while (!stop.get()) {
                        DatagramPacket ping = new DatagramPacket(in, in.length);
                        try {
                            socket.receive(ping);
                        } catch (java.net.SocketTimeoutException e) {
                            continue;
                        }
                        int length = HeartbeatFlyweight.ackInto(in, 0, HeartbeatFlyweight.LENGTH, 2, ack, 0);
                        if (length > 0) {
                            socket.send(new DatagramPacket(ack, length, ping.getSocketAddress()));
                            answered.incrementAndGet();
                        }
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            impostor.start();
            try {
                cluster.awaitLog("fd", "node 2 (127.0.0.1:" + (ProcessCluster.HEARTBEAT_BASE_PORT + 2) + ") FAILED");
            } finally {
                stop.set(true);
                impostor.join();
            }
            assertTrue(answered.get() > 0, "the impostor answered pings: it was heard, and not believed");
        }
    }

    /** Frames an outsider could write knowing the members, the group and roughly where the streams are. */
    private static List<byte[]> forgedFrames() {
        List<byte[]> frames = new ArrayList<>();
        byte[] payload = Traffic.payload(2, G, 999);
        for (int type : new int[] {FrameType.DATA, FrameType.RETRANSMIT}) {
            byte[] frame = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
            int length = new DataFlyweight().wrap(frame, 0).write(type, 2, 2, G, 20, payload, 0, payload.length);
            frames.add(java.util.Arrays.copyOf(frame, length));
        }
        // A repair from node 2 naming the next packet of its stream: rebuilt by XOR, it would be delivered.
        byte[] repair = new byte[RepairFlyweight.frameLength(1, payload.length)];
        RepairFlyweight r = new RepairFlyweight().wrap(repair, 0).writeStart(2, 1, payload.length);
        r.entry(0, 2, G, 20, payload.length);
        System.arraycopy(payload, 0, repair, r.payloadOffset(), payload.length);
        frames.add(repair);
        int[][] refs = {
            {FrameType.NAK, 2, 1, 0}, {FrameType.GONE, 2, 2, 21}, {FrameType.SESSION, 2, 2, 3_000},
            {FrameType.TAIL, 2, 1, 3_000},
        };
        for (int[] ref : refs) {
            byte[] frame = new byte[PacketRefFlyweight.LENGTH];
            new PacketRefFlyweight().wrap(frame, 0).write(ref[0], ref[1], ref[2], G, ref[3]);
            frames.add(frame);
        }
        return frames;
    }
}
