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
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * An authenticated cluster (two daemons, their rack detector, one GMS partition, a key of the run's own) takes
 * forged datagrams: DATA, RETRANSMIT, REPAIR, NAK, GONE, SESSION and TAIL frames that name the real members and the
 * real group, sent to a daemon's socket without the trailer, sealed with another key under the cluster's key id,
 * and sealed under an unknown key id. Nothing may change but a counter: no delivery, no LOST, no retransmission, no
 * NAK taken; then genuine traffic still flows.
 *
 * <p>It also takes replays: genuine datagrams, captured as they were sent (the group's multicast, heard by a socket
 * of the test that joins it; a detector's heartbeats and a daemon's acks, taken on the wire by the test standing
 * where the daemon will be), sent again. A replay moves nothing but {@code REPLAYED_DATAGRAMS} (or
 * {@code STALE_DATAGRAMS}): no delivery, no LOST, no retransmission, no heartbeat kept alive.
 */
class ForgedTrafficSystemTest {
    private static final int G = 30;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** The GMS's default pool: group g is multicast on 239.255.0.0 + g, port 9100. */
    private static final InetSocketAddress GROUP_ADDRESS = new InetSocketAddress("239.255.0." + G, 9100);

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
                FrameGuard otherKey = Authentication.with(ClusterKeys.generate(new SecureRandom(), 1)).newGuard(99);
                FrameGuard unknownId = Authentication.with(ClusterKeys.generate(new SecureRandom(), 7)).newGuard(99);
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

    @Test
    void shouldDropReplayedDataSessionTailAndNakAndChangeNothingButTheReplayCounter() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("replayed-traffic", 1);
             DatagramSocket attacker = new DatagramSocket()) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(2);
            cluster.startDaemon(3);
            cluster.startFd(List.of(1, 2, 3));
            Traffic victim = new Traffic(1, false);
            Traffic origin = new Traffic(2, false);
            Traffic third = new Traffic(3, false);
            List<byte[]> captured = new CopyOnWriteArrayList<>();
            AtomicBoolean capturing = new AtomicBoolean(true);
            Thread sniffer = Sniffer.start(GROUP_ADDRESS, capturing, captured);
            try {
                victim.join(G);
                origin.join(G);
                third.join(G);
                ProcessCluster.await(DEADLINE, "all three in the group",
                        () -> victim.members(G).containsAll(List.of(2, 3)));
                List<Traffic.Id> sent = origin.send(G, 20);
                ProcessCluster.await(DEADLINE, "the genuine traffic", () -> sent.stream()
                        .allMatch(victim.received::containsKey));
                ProcessCluster.await(DEADLINE, "a SESSION of node 2 on the wire",
                        () -> count(captured, 2, FrameType.SESSION) > 0);

                replayANak(attacker, origin, third, sent.get(3));

                // Node 2 crashes (its survivors multicast TAILs of its stream) and comes back as a new incarnation,
                // whose seqnos start again at 0: its old DATA, replayed now, names seqnos the new stream has not
                // sent yet.
                // Crashed before its application disconnects: a disconnect first would make daemon 2 leave the
                // group, and a member that left gets no TAIL (only a failure does).
                cluster.crash("daemon-2");
                origin.close();
                ProcessCluster.await(DEADLINE, "node 2 out of the group", () -> !victim.members(G).contains(2));
                ProcessCluster.await(DEADLINE, "a TAIL of node 3 on the wire",
                        () -> count(captured, 3, FrameType.TAIL) > 0);
                cluster.startDaemon(2);
                try (Traffic reborn = new Traffic(2, false)) {
                    reborn.join(G);
                    ProcessCluster.await(DEADLINE, "node 2 back in the group", () -> victim.members(G).contains(2));
                    long deliveriesBeforeFresh = deliveries(victim);
                    reborn.send(G, 3);
                    ProcessCluster.await(DEADLINE, "the new incarnation's traffic",
                            () -> deliveries(victim) == deliveriesBeforeFresh + 3);
                    capturing.set(false);
                    sniffer.join();

                    List<byte[]> replays = new ArrayList<>();
                    for (byte[] datagram : captured) {
                        int type = datagram[HeaderFlyweight.TYPE_OFFSET];
                        int source = new HeaderFlyweight().wrap(datagram, 0).source();
                        if (source == 2 && (type == FrameType.DATA || type == FrameType.SESSION)
                                || source == 3 && type == FrameType.TAIL) {
                            replays.add(datagram);
                        }
                    }
                    // The 20 messages were sent 2 ms apart, but a busy daemon bundles those that meet in one batch into
                    // one datagram: count datagrams, not messages; any of them is a replay to try.
                    assertTrue(count(replays, 2, FrameType.DATA) > 0, "the old incarnation's DATA was captured");
                    long deliveredBefore = deliveries(victim);
                    long replayedBefore = replays(victim);
                    long unauthenticBefore = victim.counter(DaemonCounter.UNAUTHENTIC_DATAGRAMS);
                    long tailsBefore = victim.counter(NakCounter.TAILS_RECEIVED);
                    InetSocketAddress daemon1 = new InetSocketAddress("127.0.0.1",
                            ProcessCluster.UNICAST_BASE_PORT + 1);
                    for (byte[] datagram : replays) {
                        attacker.send(new DatagramPacket(datagram, datagram.length, daemon1));
                    }
                    ProcessCluster.await(DEADLINE, "node 1 to count " + replays.size() + " replays",
                            () -> replays(victim) >= replayedBefore + replays.size());

                    assertEquals(replayedBefore + replays.size(), replays(victim), "every replay counted, once");
                    assertEquals(deliveredBefore, deliveries(victim), "no replayed DATA delivered");
                    assertEquals(0, victim.lost.size(), "no LOST from a replayed SESSION or TAIL");
                    assertEquals(tailsBefore, victim.counter(NakCounter.TAILS_RECEIVED), "no replayed TAIL taken");
                    assertEquals(unauthenticBefore, victim.counter(DaemonCounter.UNAUTHENTIC_DATAGRAMS));
                    assertEquals(0, victim.counter(EngineCounter.INVALID_PACKETS));
                    assertTrue(victim.members(G).containsAll(List.of(2, 3)), "membership unchanged");
                    assertEquals(0, victim.corrupt.get());

                    reborn.send(G, 5);
                    ProcessCluster.await(DEADLINE, "genuine traffic after the replays",
                            () -> deliveries(victim) == deliveredBefore + 5);
                }
            } finally {
                capturing.set(false);
                sniffer.join();
                victim.close();
                third.close();
            }
        }
    }

    /**
     * DATA a sender multicast before a member joined (or before it restarted), captured and replayed to it within the
     * clock-skew window, is never delivered: the member's stream starts at the join point the sender gave it.
     */
    @Test
    void shouldNotDeliverDataFromBeforeItsJoinToAMemberThatJoinsOrRestartsLater() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("join-replay", 1);
             DatagramSocket attacker = new DatagramSocket()) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(2);
            cluster.startFd(List.of(1, 2));
            Traffic origin = new Traffic(2, false);
            List<byte[]> captured = new CopyOnWriteArrayList<>();
            AtomicBoolean capturing = new AtomicBoolean(true);
            Thread sniffer = Sniffer.start(GROUP_ADDRESS, capturing, captured);
            InetSocketAddress daemon1 = new InetSocketAddress("127.0.0.1", ProcessCluster.UNICAST_BASE_PORT + 1);
            try {
                origin.join(G);
                origin.send(G, 50); // the group's past: node 1 is not in it
                ProcessCluster.await(DEADLINE, "node 2's burst on the wire, announced",
                        () -> count(captured, 2, FrameType.SESSION) > 0);
                try (Traffic joiner = new Traffic(1, false)) {
                    joiner.join(G);
                    replayDataOf(2, captured, attacker, daemon1, joiner);
                    assertTrue(joiner.counter(NakCounter.JOIN_POINTS_RECEIVED) >= 1, "node 2 gave its join point");
                    List<Traffic.Id> fresh = origin.send(G, 5);
                    ProcessCluster.await(DEADLINE, "genuine traffic after the join",
                            () -> fresh.stream().allMatch(joiner.received::containsKey));
                    assertEquals(5, deliveries(joiner), "what was sent after the join, and nothing else");
                }
                cluster.crash("daemon-1");
                cluster.startDaemon(1);
                try (Traffic reborn = new Traffic(1, false)) {
                    reborn.join(G);
                    capturing.set(false);
                    sniffer.join();
                    replayDataOf(2, captured, attacker, daemon1, reborn);
                    List<Traffic.Id> fresh = origin.send(G, 5);
                    ProcessCluster.await(DEADLINE, "genuine traffic after the restart",
                            () -> fresh.stream().allMatch(reborn.received::containsKey));
                    assertEquals(5, deliveries(reborn), "what was sent after the restart, and nothing else");
                    assertEquals(0, reborn.corrupt.get());
                }
            } finally {
                capturing.set(false);
                sniffer.join();
                origin.close();
            }
        }
    }

    /**
     * Replays every captured DATA datagram of {@code source} to {@code to}, {@code app}'s daemon: each is refused
     * (below the stream's join point, awaiting it, or a replay) and none is delivered.
     */
    private static void replayDataOf(int source, List<byte[]> captured, DatagramSocket attacker,
                                     InetSocketAddress to, Traffic app) throws Exception {
        List<byte[]> data = captured.stream().filter(d -> d[HeaderFlyweight.TYPE_OFFSET] == FrameType.DATA
                && new HeaderFlyweight().wrap(d, 0).source() == source).toList();
        assertTrue(data.size() > 0, "DATA of node " + source + " was captured");
        long deliveredBefore = deliveries(app);
        long refusedBefore = refusedData(app);
        for (byte[] datagram : data) {
            attacker.send(new DatagramPacket(datagram, datagram.length, to));
        }
        // Each replay is either refused or delivered (a datagram may carry several messages): wait for all of them.
        ProcessCluster.await(DEADLINE, "node " + app.node + " to take " + data.size() + " replays",
                () -> refusedData(app) - refusedBefore + deliveries(app) - deliveredBefore >= data.size());
        assertEquals(deliveredBefore, deliveries(app), "no DATA from before the join delivered");
        assertEquals(0, app.lost.size(), "nor reported LOST");
    }

    /** DATA {@code app}'s daemon took for the group's past, dropped before the join point, or refused as replays. */
    private static long refusedData(Traffic app) {
        return app.counter(EngineCounter.DUPLICATES) + app.counter(NakCounter.AWAITING_JOIN_POINT) + replays(app);
    }

    @Test
    void shouldNotLetReplayedAcksKeepACrashedDaemonAlive() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("replayed-acks", 1);
             DatagramSocket tap = new DatagramSocket()) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startFd(List.of(1, 2));
            cluster.awaitLog("fd", "pinging");
            InetSocketAddress heartbeat2 = new InetSocketAddress("127.0.0.1", ProcessCluster.HEARTBEAT_BASE_PORT + 2);
            // Before node 2 starts, the test stands at its heartbeat address and takes the detector's pings.
            List<byte[]> pings = new ArrayList<>();
            try (DatagramSocket standIn = new DatagramSocket(heartbeat2)) {
                standIn.setSoTimeout(5_000);
                while (pings.size() < 5) {
                    byte[] in = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
                    DatagramPacket ping = new DatagramPacket(in, in.length);
                    standIn.receive(ping);
                    pings.add(Arrays.copyOf(in, ping.getLength()));
                }
            }
            // Node 2 answers them (they are authentic and fresh): its genuine acks, taken by the test on the way
            // and handed to the detector once, late, as a slow path would.
            cluster.startDaemon(2);
            List<byte[]> acks = new ArrayList<>();
            tap.setSoTimeout(5_000);
            for (byte[] ping : pings) {
                tap.send(new DatagramPacket(ping, ping.length, heartbeat2));
                byte[] in = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
                DatagramPacket ack = new DatagramPacket(in, in.length);
                tap.receive(ack);
                assertEquals(FrameType.HEARTBEAT_ACK, in[HeaderFlyweight.TYPE_OFFSET]);
                acks.add(Arrays.copyOf(in, ack.getLength()));
            }
            InetSocketAddress detector = new InetSocketAddress("127.0.0.1", ProcessCluster.FD_PORT);
            for (byte[] ack : acks) {
                tap.send(new DatagramPacket(ack, ack.length, detector));
            }
            String failed = "node 2 (127.0.0.1:" + (ProcessCluster.HEARTBEAT_BASE_PORT + 2) + ") FAILED";
            String recovered = "node 2 (127.0.0.1:" + (ProcessCluster.HEARTBEAT_BASE_PORT + 2) + ") RECOVERED";
            // Node 2 was silent until it started: the detector may have reported it, then seen it recover.
            Thread.sleep(1_500);
            ProcessCluster.await(DEADLINE, "node 2 alive in the detector's eyes",
                    () -> occurrences(cluster.log("fd"), failed) == occurrences(cluster.log("fd"), recovered));
            int failuresBefore = occurrences(cluster.log("fd"), failed);
            cluster.crash("daemon-2");
            // The crashed daemon's acks, replayed to the detector over and over.
            java.util.concurrent.atomic.AtomicLong replayed = new java.util.concurrent.atomic.AtomicLong();
            ProcessCluster.await(DEADLINE, "node 2 reported failed while its acks are replayed", () -> {
                if (occurrences(cluster.log("fd"), failed) != failuresBefore) {
                    return true;
                }
                try {
                    for (byte[] ack : acks) {
                        tap.send(new DatagramPacket(ack, ack.length, detector));
                        replayed.incrementAndGet();
                    }
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("replaying the acks: " + e, e);
                }
                return false;
            });
            long expected = replayed.get();
            // The detector logs its counters every 10 s: every replay counted, as a replay, and nothing else.
            ProcessCluster.await(DEADLINE, "the detector to count " + expected + " replays",
                    () -> lastCounter(cluster.log("fd"), "replayed") + lastCounter(cluster.log("fd"), "stale")
                            >= expected);
            String log = cluster.log("fd");
            assertEquals(expected, lastCounter(log, "replayed") + lastCounter(log, "stale"));
            assertEquals(0, lastCounter(cluster.log("fd"), "unauthentic"));
        }
    }

    /**
     * A NAK node 1 could have sent to node 2 for one of its packets: the first copy is answered, every copy of the
     * same bytes after it is a replay, and a copy sent to node 3 is unauthentic there (sealed for node 2). (NAKs are
     * unicast between daemons, out of reach of a test's socket, so the test makes this one with the cluster's key.)
     */
    private static void replayANak(DatagramSocket attacker, Traffic origin, Traffic third, Traffic.Id asked)
            throws Exception {
        byte[] nak = new byte[PacketRefFlyweight.NAK_LENGTH + DatagramAuth.TRAILER_LENGTH];
        new PacketRefFlyweight().wrap(nak, 0).write(FrameType.NAK, 1, 2, G, asked.datagram());
        int nakLength = Authentication.with(ClusterKeys.load(keyFile("replayed-traffic"))).newGuard(1)
                .seal(nak, 0, PacketRefFlyweight.NAK_LENGTH, 2);
        InetSocketAddress daemon2 = new InetSocketAddress("127.0.0.1", ProcessCluster.UNICAST_BASE_PORT + 2);
        long retransmitsBefore = origin.counter(NakCounter.RETRANSMITS_SENT);
        attacker.send(new DatagramPacket(nak, nakLength, daemon2));
        ProcessCluster.await(DEADLINE, "node 2 to answer the NAK once",
                () -> origin.counter(NakCounter.RETRANSMITS_SENT) == retransmitsBefore + 1);
        long naksTaken = origin.counter(NakCounter.NAKS_RECEIVED);
        long replaysBefore = replays(origin);
        int nakReplays = 10;
        for (int i = 0; i < nakReplays; i++) {
            attacker.send(new DatagramPacket(nak, nakLength, daemon2));
        }
        ProcessCluster.await(DEADLINE, "node 2 to count " + nakReplays + " replays",
                () -> replays(origin) == replaysBefore + nakReplays);
        assertEquals(retransmitsBefore + 1, origin.counter(NakCounter.RETRANSMITS_SENT), "no retransmission");
        assertEquals(naksTaken, origin.counter(NakCounter.NAKS_RECEIVED), "no replayed NAK was taken");

        // The same NAK sent to node 3, which it was not sealed for: unauthentic there, never taken.
        long unauthenticBefore = third.counter(DaemonCounter.UNAUTHENTIC_DATAGRAMS);
        long thirdNaks = third.counter(NakCounter.NAKS_RECEIVED);
        InetSocketAddress daemon3 = new InetSocketAddress("127.0.0.1", ProcessCluster.UNICAST_BASE_PORT + 3);
        for (int i = 0; i < nakReplays; i++) {
            attacker.send(new DatagramPacket(nak, nakLength, daemon3));
        }
        ProcessCluster.await(DEADLINE, "node 3 to count " + nakReplays + " unauthentic datagrams",
                () -> third.counter(DaemonCounter.UNAUTHENTIC_DATAGRAMS) == unauthenticBefore + nakReplays);
        assertEquals(thirdNaks, third.counter(NakCounter.NAKS_RECEIVED), "a NAK sealed for node 2 is not taken");
    }

    /** Datagrams {@code app}'s daemon refused as replayed or stale. */
    private static long replays(Traffic app) {
        return app.counter(DaemonCounter.REPLAYED_DATAGRAMS) + app.counter(DaemonCounter.STALE_DATAGRAMS);
    }

    /** Packets delivered to {@code app} in all (a restarted origin's seqnos repeat its previous ones). */
    private static long deliveries(Traffic app) {
        return app.received.values().stream().mapToLong(Integer::longValue).sum();
    }

    /** The key file {@link ProcessCluster} wrote for the run {@code name}. */
    private static Path keyFile(String name) {
        return Path.of("target", "system-logs", name, "cluster.key");
    }

    private static long count(List<byte[]> datagrams, int source, int type) {
        return datagrams.stream().filter(d -> d[HeaderFlyweight.TYPE_OFFSET] == type
                && new HeaderFlyweight().wrap(d, 0).source() == source).count();
    }

    private static int occurrences(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /** The value of {@code name} in the detector's last counters line, or 0 before the first. */
    private static long lastCounter(String log, String name) {
        Matcher m = Pattern.compile("counters: .*\\b" + name + "=(\\d+)").matcher(log);
        long value = 0;
        while (m.find()) {
            value = Long.parseLong(m.group(1));
        }
        return value;
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
            byte[] frame = new byte[PacketRefFlyweight.lengthOf(ref[0])];
            new PacketRefFlyweight().wrap(frame, 0).write(ref[0], ref[1], ref[2], G, ref[3]);
            frames.add(frame);
        }
        return frames;
    }
}
