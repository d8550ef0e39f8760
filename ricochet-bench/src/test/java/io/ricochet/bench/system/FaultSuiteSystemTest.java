package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.ApiException;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.client.ApiConnectionException;
import io.ricochet.daemon.BundleFormat;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.nak.NakCounter;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The delivery promise of docs/api.md under faults, on real processes and sockets: every message a daemon accepted
 * is delivered exactly once to every other member, or reported LOST to it, and nothing else happens (no duplicate,
 * no corrupt payload, no delivery of something never sent, no message both delivered and LOST, no drop by the
 * API's backpressure that would hide a loss). Each test starts its own cluster: one GMS partition and three daemons
 * in one group, with 1 % loss injected at every receiver so recovery is always at work.
 */
class FaultSuiteSystemTest {
    private static final int G = 20;
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    /** The send window of the sender killed mid-stream, in datagrams. */
    private static final int SEND_WINDOW = 32;

    private ProcessCluster cluster;
    private final List<Traffic> apps = new ArrayList<>();

    @BeforeEach
    void namespace() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
    }

    @AfterEach
    void stop() {
        apps.forEach(Traffic::close);
        apps.clear();
        if (cluster != null) {
            cluster.close();
        }
    }

    /** GMS, the daemons 1..nodes (extra flags for node 1), and, if asked, the rack failure detector. */
    private void start(TestInfo test, int nodes, boolean detector, String... node1Flags) throws IOException {
        cluster = new ProcessCluster("faults-" + test.getTestMethod().orElseThrow().getName(), 1);
        cluster.startGms();
        for (int node = 1; node <= nodes; node++) {
            List<String> flags = new ArrayList<>(List.of("--inject-loss", "uniform:0.01"));
            if (node == 1) {
                flags.addAll(List.of(node1Flags));
            }
            cluster.startDaemon(node, flags.toArray(String[]::new));
        }
        if (detector) {
            List<Integer> all = new ArrayList<>();
            for (int node = 1; node <= nodes; node++) {
                all.add(node);
            }
            cluster.startFd(all);
        }
    }

    private Traffic app(int node, boolean echo) {
        Traffic app = new Traffic(node, echo);
        app.join(G);
        apps.add(app);
        return app;
    }

    /** Waits until every application sees the other {@code nodes - 1} daemons in the group. */
    private void awaitGroup(int nodes) {
        for (Traffic app : apps) {
            ProcessCluster.await(DEADLINE, "node " + app.node + " to see the whole group",
                    () -> app.members(G).size() == nodes - 1);
        }
    }

    /**
     * The verdict for one application: each of {@code expected} delivered exactly once or reported LOST, never
     * both; nothing delivered or reported that is not in {@code known} (what was sent); no payload corrupted; no
     * delivery dropped by the daemon's API backpressure (that would make a loss invisible to this check).
     */
    private static void assertOnceOrLost(String who, Traffic app, Collection<Traffic.Id> expected,
                                         Set<Traffic.Id> known) {
        ProcessCluster.await(DEADLINE, who + " to hear of each of " + expected.size() + " messages", () -> expected
                .stream().allMatch(id -> app.received.containsKey(id) || app.lostCovers(id)));
        for (Traffic.Id id : expected) {
            assertFalse(app.received.containsKey(id) && app.lostCovers(id), who + ": " + id + " delivered AND lost");
        }
        for (Map.Entry<Traffic.Id, Integer> e : app.received.entrySet()) {
            assertEquals(1, e.getValue(), who + ": " + e.getKey() + " delivered more than once");
            assertTrue(known.contains(e.getKey()), who + ": " + e.getKey() + " delivered but never sent");
        }
        for (Traffic.Id id : app.lost) {
            assertTrue(known.stream().anyMatch(k -> k.origin() == id.origin() && k.group() == id.group()
                    && k.datagram() == id.datagram()), who + ": " + id + " reported lost, no message of it sent");
        }
        assertEquals(0, app.corrupt.get(), who + ": corrupted payloads");
        assertEquals(0, app.client.overflowedDeliveries(), who + ": deliveries dropped by API backpressure");
    }

    /**
     * The verdict for an application whose daemon never stopped and could recover every loss it had: the promise
     * ({@link #assertOnceOrLost}), and nothing reported LOST or DROPPED, so each of {@code expected} was delivered.
     */
    private static void assertAllDelivered(String who, Traffic app, Collection<Traffic.Id> expected,
                                           Set<Traffic.Id> known) {
        assertOnceOrLost(who, app, expected, known);
        List<Long> lost = app.lost.stream().map(Traffic.Id::datagram).sorted().toList();
        assertEquals(0, lost.size(), who + " reported LOST " + lost.size() + " datagrams, though it could recover "
                + "everything; the first ones " + lost.subList(0, Math.min(10, lost.size())));
        assertEquals(0, app.dropped.size(), who + ": deliveries DROPPED " + app.dropped);
        assertEquals(0, expected.stream().filter(id -> !app.received.containsKey(id)).count(),
                who + ": messages not delivered");
    }

    private static Set<Traffic.Id> all(Collection<Traffic.Id> ids) {
        return new HashSet<>(ids);
    }

    @Test
    void shouldKeepThePromiseToAReceiverPausedForThreeSecondsUnderTenThousandMessagesPerSecond(TestInfo test)
            throws Exception {
        start(test, 3, false);
        Traffic sender = app(1, false);
        Traffic steady = app(2, false);
        Traffic paused = app(3, false);
        awaitGroup(3);
        Thread pauser = new Thread(() -> {
            try {
                Thread.sleep(1_500);
                cluster.pause("daemon-3");
                Thread.sleep(3_000);
                cluster.resume("daemon-3");
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        pauser.start();
        long startNs = System.nanoTime();
        List<Traffic.Id> sent = new ArrayList<>(sender.sendPaced(G, 60_000, 10_000, 4));
        double seconds = (System.nanoTime() - startNs) / 1e9;
        pauser.join();
        sent.addAll(sender.sendPaced(G, 200, 100, 1)); // after the pause: the stream must not be wedged
        System.out.printf("paused receiver: %d messages in %.1f s (%.0f/s offered 10000/s)%n", 60_000, seconds,
                60_000 / seconds);

        // Node 2 never stopped and recovers its 1 % by LEC or NAK: it owes every message, none LOST.
        assertAllDelivered("steady node 2", steady, sent, all(sent));
        assertOnceOrLost("paused node 3", paused, sent, all(sent));
        // Node 3 may give up only what its sender no longer held: the retransmit buffer evicts in the order it was
        // filled, and node 1 sends to this group alone, so what it no longer holds is its datagrams 0..evicted-1.
        // A LOST above them was a datagram node 3 could still have had by asking.
        long evicted = sender.counter(EngineCounter.RETRANSMIT_BUFFER_EVICTIONS);
        List<Long> stillHeld = paused.lost.stream().map(Traffic.Id::datagram).filter(d -> d >= evicted).sorted()
                .toList();
        assertEquals(0, stillHeld.size(), "node 3 reported LOST " + stillHeld.size() + " datagrams its sender still "
                + "held (it evicted datagrams 0.." + (evicted - 1) + "), the first ones "
                + stillHeld.subList(0, Math.min(10, stillHeld.size())));
        assertEquals(0, paused.dropped.size(), "node 3: deliveries DROPPED " + paused.dropped);
        List<Traffic.Id> last = sent.subList(sent.size() - 200, sent.size());
        assertTrue(last.stream().anyMatch(paused.received::containsKey), "node 3 delivers again after the pause");
        System.out.printf("paused node 3: %d delivered, %d datagrams reported lost, window slides %d; its sender "
                + "evicted %d, answered GONE %d times%n", paused.received.size(), paused.lost.size(),
                paused.counter(EngineCounter.WINDOW_SLIDES), evicted, sender.counter(NakCounter.GONE_SENT));
    }

    @Test
    void shouldPaceASenderOfferingTenTimesWhatTheDaemonCanHold(TestInfo test) throws Exception {
        // 1024 packets kept for the NAK give-up time (about 3.3 s): node 1 can take about 300 packets/s. Pacing
        // counts datagrams: without bundling each message is one, so the messages offered are the datagrams. STABLE
        // reports are off, as with members that never report: every packet is kept its full time (with reports on,
        // InProcessTrialSystemTest shows a small buffer keeping up).
        start(test, 3, false, "--retransmit-buffer", "1024", "--send-queue", "256", "--bundle-bytes", "0",
                "--stability-interval-ms", "0");
        Traffic sender = app(1, false);
        Traffic two = app(2, false);
        Traffic three = app(3, false);
        awaitGroup(3);
        List<Traffic.Id> accepted = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong busy = new AtomicLong();
        Thread trying = new Thread(() -> {
            long end = System.nanoTime() + 4_000_000_000L;
            long i = 0;
            while (System.nanoTime() - end < 0) {
                try {
                    long seqno = sender.client.trySend(G, Traffic.payload(1, G, 1_000_000 + i++));
                    accepted.add(new Traffic.Id(1, G, seqno));
                } catch (ApiException e) {
                    assertEquals(ApiException.Code.BUSY, e.code());
                    busy.incrementAndGet();
                }
                java.util.concurrent.locks.LockSupport.parkNanos(333_000); // about 3000/s offered
            }
        });
        trying.start();
        accepted.addAll(sender.sendPaced(G, 1_200, 3_000, 2)); // the blocking form: paced by the daemon
        trying.join();
        Set<Traffic.Id> known = all(accepted);

        assertTrue(busy.get() > 0, "TRY_SEND was refused BUSY while the daemon was full");
        assertTrue(sender.counter(DaemonCounter.SENDS_QUEUED) > 0, "blocking sends waited in the send queue");
        assertOnceOrLost("node 2", two, accepted, known);
        assertOnceOrLost("node 3", three, accepted, known);
        System.out.printf("overloaded sender: %d accepted, %d BUSY, %d NAK-recovered at node 2, %d lost%n",
                accepted.size(), busy.get(), two.counter(EngineCounter.RECOVERED_BY_NAK), two.lost.size());
    }

    @Test
    void shouldDeliverEverythingAndFailNobodyWithTwoCpuHogsBesideTheCluster(TestInfo test) throws Exception {
        start(test, 3, true);
        cluster.startCpuHog("hog-1");
        cluster.startCpuHog("hog-2");
        List<Traffic> senders = List.of(app(1, false), app(2, false), app(3, false));
        awaitGroup(3);
        List<Traffic.Id> sent = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (Traffic app : senders) {
            Thread t = new Thread(() -> {
                try {
                    sent.addAll(app.sendPaced(G, 2_500, 500, 1));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Traffic app : senders) {
            List<Traffic.Id> others = sent.stream().filter(id -> id.origin() != app.node).toList();
            assertOnceOrLost("node " + app.node, app, others, all(sent));
            assertEquals(0, app.lost.size(), "node " + app.node + ": nothing may be given up for busy CPUs");
        }
        assertFalse(cluster.log("fd").contains(" FAILED:"), "a busy but live daemon was declared failed:\n"
                + cluster.log("fd"));
    }

    @Test
    void shouldTakeBackADaemonWronglyDeclaredFailedWithoutDuplicates(TestInfo test) throws Exception {
        start(test, 3, true);
        Traffic sender = app(1, false);
        Traffic two = app(2, false);
        Traffic paused = app(3, false);
        awaitGroup(3);
        List<Traffic.Id> before = sender.sendPaced(G, 500, 500, 1);
        // Paused well past the detector's acceptable pause: it is declared failed, though it never crashed.
        cluster.pause("daemon-3");
        cluster.awaitLog("fd", "node 3 (127.0.0.1:" + (ProcessCluster.HEARTBEAT_BASE_PORT + 3) + ") FAILED");
        List<Traffic.Id> during = sender.sendPaced(G, 500, 500, 1);
        cluster.resume("daemon-3");
        cluster.awaitLog("fd", "RECOVERED");
        ProcessCluster.await(DEADLINE, "node 3 back in the group", () -> sender.members(G).contains(3));
        List<Traffic.Id> after = sender.sendPaced(G, 500, 500, 1);
        Set<Traffic.Id> known = all(before);
        known.addAll(during);
        known.addAll(after);

        List<Traffic.Id> all = new ArrayList<>(known);
        assertOnceOrLost("node 2, which stayed", two, all, known);
        // Node 3 owes nothing for the time it was out of the group, but gets no duplicate, and all the rest.
        List<Traffic.Id> owed = new ArrayList<>(before);
        owed.addAll(after);
        assertOnceOrLost("node 3, wrongly failed and back", paused, owed, known);
        System.out.printf("false failure: node 3 got %d of the %d sent while it was out of the group%n",
                during.stream().filter(paused.received::containsKey).count(), during.size());
    }

    @Test
    void shouldReportTheTailOfASenderKilledMidStream(TestInfo test) throws Exception {
        // Node 1's send window is small, so the bound on its crash tail below is tight: SEND_WINDOW datagrams sent
        // beyond what a member reported receiving; reports every 8 deliveries keep it from pacing the stream.
        start(test, 3, true, "--send-window", Integer.toString(SEND_WINDOW), "--stability-every", "8");
        Traffic victim = app(1, false);
        Traffic two = app(2, false);
        Traffic three = app(3, false);
        awaitGroup(3);
        // The daemon's bundle-bytes, 'payload' by default: its largest message and the kind byte.
        int bundleBytes = victim.client.maxPayload() + 1;
        List<Traffic.Id> accepted = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean crashed = new AtomicBoolean();
        Thread sending = new Thread(() -> {
            try {
                for (long i = 0; !crashed.get(); i++) {
                    accepted.add(new Traffic.Id(1, G, victim.client.send(G, Traffic.payload(1, G, i))));
                    java.util.concurrent.locks.LockSupport.parkNanos(500_000);
                }
            } catch (ApiConnectionException | ApiException e) {
                // The daemon is gone.
            }
        });
        sending.start();
        Thread.sleep(2_000);
        long killedNs = System.nanoTime();
        cluster.crash("daemon-1");
        crashed.set(true);
        sending.join();
        cluster.awaitLog("fd", " FAILED:");
        System.out.printf("kill -9: the detector reported node 1 failed within %.1f s%n",
                (System.nanoTime() - killedNs) / 1e9);

        // What some survivor heard of: a datagram sent but seen by nobody died with its sender's socket buffer.
        // Every message of a datagram up to the last one heard of is owed: the ids the sender was given, and
        // those a survivor was handed (a message whose OK the kill cut off).
        Set<Traffic.Id> known = all(accepted);
        long highest = -1;
        for (Traffic app : List.of(two, three)) {
            List<Traffic.Id> heard = new ArrayList<>(app.received.keySet());
            heard.addAll(app.lost);
            for (Traffic.Id id : heard) {
                highest = Math.max(highest, id.datagram());
                known.add(id);
            }
        }
        long lastHeard = highest;
        List<Traffic.Id> heardOf = known.stream().filter(id -> id.datagram() <= lastHeard).toList();
        assertOnceOrLost("node 2", two, heardOf, known);
        assertOnceOrLost("node 3", three, heardOf, known);
        // The exemption is bounded by what node 1 could have had in flight, its send window: a datagram no survivor
        // heard of is beyond every member's reported progress, and node 1 sends at most SEND_WINDOW datagrams beyond
        // it (for the give-up time, longer than this stream); plus the datagram it was filling, not yet sent. Each
        // holds at most messagesPerDatagram messages. More means the daemon accepted messages outside its window
        // and the exemption would hide their loss.
        long unseen = accepted.stream().filter(id -> id.datagram() > lastHeard).count();
        int perDatagram = BundleFormat.messagesPerDatagram(bundleBytes, Traffic.payload(1, G, 0).length);
        long inFlight = (SEND_WINDOW + 1L) * perDatagram;
        System.out.printf("kill -9: %d accepted, datagrams 0..%d heard of (%d reported lost at node 2), %d accepted "
                + "but seen by no survivor, of at most %d in flight (send window %d datagrams and the one being "
                + "filled, %d messages each)%n", accepted.size(), highest, two.lost.size(), unseen, inFlight,
                SEND_WINDOW, perDatagram);
        assertTrue(unseen <= inFlight, unseen + " accepted messages seen by no survivor, more than the " + inFlight
                + " node 1 could have had in flight; the first ones " + accepted.stream()
                .filter(id -> id.datagram() > lastHeard).limit(10).toList());

        List<Traffic.Id> after = two.sendPaced(G, 100, 200, 1);
        known.addAll(after);
        assertOnceOrLost("node 3 after the crash", three, after, known);
    }

    @Test
    void shouldReportALargeMessageLostWholeWhenItsSenderIsKilledInItsMiddle(TestInfo test) throws Exception {
        // Node 1 sends 2 000 datagrams a second, so its 16 MiB message (16 530 fragments) is in flight for seconds.
        start(test, 3, true, "--send-rate-limit", "2000");
        Traffic victim = app(1, false);
        Traffic two = app(2, false);
        Traffic three = app(3, false);
        awaitGroup(3);
        List<Traffic.Id> small = victim.send(G, 20);
        byte[] large = new byte[16 << 20];
        byte[] head = (1 + ":" + G + ":999999:").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        // In Traffic's form but not one of its payloads: counted corrupt if it were delivered.
        System.arraycopy(head, 0, large, 0, head.length);
        Thread sending = new Thread(() -> {
            try {
                victim.client.send(G, large);
            } catch (ApiConnectionException | ApiException e) {
                // The daemon is gone.
            }
        });
        sending.start();
        ProcessCluster.await(DEADLINE, "node 2 to hold pieces of the large message",
                () -> two.client.stats().buffers().getOrDefault("reassemblyBytes", 0L) > 0);
        cluster.crash("daemon-1");
        sending.join();
        cluster.awaitLog("fd", " FAILED:");

        // Each survivor names the message, and only it, in one LOST once the engine drops the sender's stream; the
        // small messages before it are delivered once; nothing of the large one is delivered.
        long first = small.stream().mapToLong(Traffic.Id::datagram).max().orElseThrow() + 1;
        Traffic.Id message = new Traffic.Id(1, G, io.ricochet.api.MessageId.of(first, 0));
        for (Traffic app : List.of(two, three)) {
            String who = "node " + app.node;
            ProcessCluster.await(DEADLINE, who + " to report the large message LOST",
                    () -> app.lost.contains(message));
            assertAllDeliveredBut(who, app, small, message);
        }
        assertTrue(two.counter(DaemonCounter.MESSAGES_LOST) >= 1);
        assertEquals(0, two.client.stats().buffers().get("reassemblyBytes"), "its pieces are let go");
    }

    /** Every one of {@code expected} delivered once, and the one LOST {@code lost}; no corrupt delivery. */
    private static void assertAllDeliveredBut(String who, Traffic app, List<Traffic.Id> expected, Traffic.Id lost) {
        ProcessCluster.await(DEADLINE, who + " to deliver " + expected.size() + " messages",
                () -> expected.stream().allMatch(app.received::containsKey));
        for (Traffic.Id id : expected) {
            assertEquals(1, app.received.get(id), who + ": " + id + " delivered more than once");
        }
        assertEquals(Set.of(lost), Set.copyOf(app.lost), who + ": one LOST, naming the message");
        assertEquals(0, app.corrupt.get(), who + ": nothing of the large message delivered");
        assertEquals(expected.size(), app.received.size(), who + ": nothing else delivered");
    }

    @Test
    void shouldDeliverToTwoApplicationsOnOneDaemonOnceInTheSameForm(TestInfo test) throws Exception {
        start(test, 2, false);
        Traffic a = app(1, true);
        Traffic b = app(1, false);
        Traffic c = app(2, false);
        awaitGroup(2);
        List<Traffic.Id> fromA = a.sendPaced(G, 300, 300, 1);
        List<Traffic.Id> fromB = b.sendPaced(G, 300, 300, 1);
        List<Traffic.Id> fromC = c.sendPaced(G, 300, 300, 1);
        Set<Traffic.Id> known = new HashSet<>(fromA);
        known.addAll(fromB);
        known.addAll(fromC);

        List<Traffic.Id> forA = new ArrayList<>(known);
        List<Traffic.Id> forB = new ArrayList<>(fromA);
        forB.addAll(fromC);
        List<Traffic.Id> forC = new ArrayList<>(fromA);
        forC.addAll(fromB);
        assertOnceOrLost("application A (echo on)", a, forA, known);
        assertOnceOrLost("application B (no echo)", b, forB, known);
        assertOnceOrLost("node 2", c, forC, known);
        assertTrue(fromB.stream().noneMatch(b.received::containsKey), "B asked not to get its own packets");
        assertTrue(fromA.stream().allMatch(b.received::containsKey), "B got A's packets locally, none lost");
        assertTrue(fromB.stream().allMatch(a.received::containsKey), "A got B's packets locally, none lost");
        assertEquals(600 + 300, a.counter(DaemonCounter.LOCAL_DELIVERIES), "A's to A and B, B's to A only");
    }

    @Test
    void shouldLeaveNoMembershipBehindAJoinThatTimedOut(TestInfo test) throws Exception {
        start(test, 2, false);
        Traffic one = new Traffic(1, false);
        apps.add(one);
        Traffic two = app(2, false);
        cluster.crash("gms-0");
        ApiException refused = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
                () -> one.client.join(G), "no GMS: the join cannot be confirmed");
        assertEquals(ApiException.Code.UNAVAILABLE, refused.code(), refused.getMessage());

        cluster.restartGms(0);
        int other = G + 1;
        // The daemons reconnect with their backoff (up to 5 s after a long outage) and a TLS handshake: a join made
        // before that is refused UNAVAILABLE ("try again"), and an application tries again, as here.
        joinRetrying(one, other);
        joinRetrying(two, other);
        ProcessCluster.await(DEADLINE, "both daemons back in the GMS, in group " + other,
                () -> two.members(other).contains(1));
        assertFalse(two.members(G).contains(1), "node 1 joined group " + G + " with no application behind it");
        assertFalse(one.client.stats().groups().contains(G), "node 1 thinks it is in group " + G);
    }

    private static void joinRetrying(Traffic app, int group) {
        ProcessCluster.await(DEADLINE, "node " + app.node + "'s join of group " + group + " confirmed", () -> {
            try {
                app.client.join(group);
                return true;
            } catch (ApiException e) {
                if (e.code() != ApiException.Code.UNAVAILABLE) {
                    throw e;
                }
                return false;
            }
        });
    }

    @Test
    void shouldServeOtherClientsWhileOneConnectionFloodsPipelinedRequests(TestInfo test) throws Exception {
        start(test, 2, false);
        Traffic one = app(1, false);
        Traffic two = app(2, false);
        awaitGroup(2);
        AtomicLong written = new AtomicLong();
        try (Socket flood = new Socket("127.0.0.1", ProcessCluster.apiPort(1))) {
            Thread flooder = new Thread(() -> {
                try {
                    OutputStream out = flood.getOutputStream();
                    out.write(frame(new ApiRequest.Hello(1, ApiProtocol.VERSION, "flood")));
                    for (int id = 2; id < 400_002; id++) {
                        out.write(frame(new ApiRequest.Stats(id)));
                        written.incrementAndGet();
                    }
                } catch (IOException e) {
                    // Closed at the end of the test, or blocked until then: it never reads a reply.
                }
            });
            flooder.setDaemon(true);
            flooder.start();
            ProcessCluster.await(DEADLINE, "the flood to start", () -> written.get() > 10_000);

            List<Traffic.Id> fromOne = one.sendPaced(G, 1_000, 500, 1);
            List<Traffic.Id> fromTwo = two.sendPaced(G, 1_000, 500, 1);
            Set<Traffic.Id> known = all(fromOne);
            known.addAll(fromTwo);
            assertOnceOrLost("node 1", one, fromTwo, known);
            assertOnceOrLost("node 2", two, fromOne, known);
            Map<String, Long> api = one.client.stats().api();
            assertTrue(api.get("PEAK_REQUESTS_IN_FLIGHT") <= 1024, "requests in flight stayed bounded: " + api);
            System.out.printf("flood: %d STATS written unanswered; the daemon's API counters %s%n", written.get(),
                    api);
        }
    }

    private static byte[] frame(ApiRequest request) {
        ByteBuf buf = Unpooled.buffer();
        ApiFrameCodec.encode(request, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
