package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.ricochet.control.message.WatchList;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeartbeatFlyweight;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A rack detector ({@link FdServer}) on loopback pinging three {@link FakeDaemon}s, reporting to a
 * {@link RecordingReporter}. Conditions are awaited by polling; the short interval with a high miss count keeps a
 * run quick while tolerating half a second of scheduling noise before a healthy daemon would be suspected.
 */
class FdServerTest {
    static final long INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(20);
    static final int MISS = 25;
    static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final RecordingReporter reporter = new RecordingReporter();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private FakeDaemon daemon(int nodeId) throws Exception {
        return keep(new FakeDaemon(nodeId));
    }

    private FdServer server(String id, List<Target> targets) throws InterruptedException {
        FdConfig config = new FdConfig(id, ANY_LOOPBACK_PORT, targets, INTERVAL_NS, MISS);
        return keep(new FdServer(config, reporter, group)).start();
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    @Test
    void shouldReportAStoppedDaemonFailedOnceAndRecoveredWhenItAnswersAgain() throws Exception {
        FakeDaemon one = daemon(1);
        FakeDaemon two = daemon(2);
        FakeDaemon three = daemon(3);
        FdServer fd = server("rack-1", List.of(one.target(), two.target(), three.target()));
        FdCounters counters = fd.counters();
        Await.until("every daemon answered a few rounds", () -> counters.get(FdCounter.ACKS_ACCEPTED) >= 3 * 5,
                counters::toString);
        assertEquals(List.of(), reporter.events());

        two.answer(false);
        Await.until("failed 2", () -> reporter.has("failed 2"), counters::toString);
        // Many more rounds with daemon 2 silent: still exactly one report.
        long pinged = two.heartbeats();
        Await.until("daemon 2 pinged for 2 * miss more rounds", () -> two.heartbeats() >= pinged + 2 * MISS,
                counters::toString);
        assertEquals(List.of("failed 2"), reporter.events());

        two.answer(true);
        Await.until("recovered 2", () -> reporter.has("recovered 2"), counters::toString);
        assertEquals(List.of("failed 2", "recovered 2"), reporter.events());
        assertEquals(1, counters.get(FdCounter.FAILURES_REPORTED));
        assertEquals(1, counters.get(FdCounter.RECOVERIES_REPORTED));
        assertEquals(0, counters.get(FdCounter.MALFORMED));
        assertEquals(0, counters.get(FdCounter.HANDLER_ERRORS));
    }

    @Test
    void shouldHaveTheReporterForgetADaemonAWatchListTakesOffButNeverAStaticTarget() throws Exception {
        FakeDaemon one = daemon(1);
        FakeDaemon three = daemon(3);
        three.answer(false);
        FdServer fd = server("rack-1", List.of(one.target()));
        FdCounters counters = fd.counters();
        fd.watch(list(one, three));
        Await.until("failed 3", () -> reporter.has("failed 3"), counters::toString);

        fd.watch(list(one));
        Await.until("forget 3", () -> reporter.has("forget 3"), counters::toString);
        fd.watch(list());
        long pinged = one.heartbeats();
        Await.until("daemon 1, a static target, still pinged", () -> one.heartbeats() >= pinged + 2 * MISS,
                counters::toString);

        assertEquals(List.of("failed 3", "forget 3"), reporter.events(), "no verdict, and daemon 1 never forgotten");
        assertEquals(1, counters.get(FdCounter.TARGETS_REMOVED));
    }

    @Test
    void shouldReportTheFirstAnswerOfADaemonAWatchListAddsButNotOfAStaticTarget() throws Exception {
        FakeDaemon one = daemon(1);
        FakeDaemon two = daemon(2);
        FdServer fd = server("rack-1", List.of(one.target()));
        FdCounters counters = fd.counters();
        fd.watch(list(one, two));
        Await.until("recovered 2", () -> reporter.has("recovered 2"), counters::toString);
        long pinged = two.heartbeats();
        Await.until("daemon 2 answered 2 * miss more rounds", () -> two.heartbeats() >= pinged + 2 * MISS,
                counters::toString);

        assertEquals(List.of("recovered 2"), reporter.events(), "once; daemon 1, of --members, keeps today's rule");
        assertEquals(1, counters.get(FdCounter.FIRST_ANSWERS_REPORTED));
        assertEquals(0, counters.get(FdCounter.RECOVERIES_REPORTED));
    }

    /** A watch list of {@code daemons}, all of rack 1. */
    private static WatchList list(FakeDaemon... daemons) {
        List<WatchList.Target> targets = new ArrayList<>();
        for (FakeDaemon d : daemons) {
            targets.add(new WatchList.Target(d.target().wireId(), 1, d.target().address()));
        }
        return new WatchList(targets);
    }

    @Test
    void shouldCountATickDelayedByItsOwnStallAndJudgeNobodyForIt() throws Exception {
        FakeDaemon one = daemon(1);
        AtomicLong stalledNs = new AtomicLong();
        FdConfig config = new FdConfig("rack-1", ANY_LOOPBACK_PORT, List.of(one.target()), INTERVAL_NS, MISS);
        FdServer fd = keep(new FdServer(config, reporter, group, () -> System.nanoTime() + stalledNs.get())).start();
        FdCounters counters = fd.counters();
        Await.until("daemon 1 answered a few rounds", () -> counters.get(FdCounter.ACKS_ACCEPTED) >= 5,
                counters::toString);
        long lateTicks = counters.get(FdCounter.LATE_TICKS);

        // Three seconds vanish between two ticks, as if this process had not been scheduled: by its history, daemon
        // 1 has been silent for far too long, but the silence is the detector's own.
        stalledNs.addAndGet(TimeUnit.SECONDS.toNanos(3));
        Await.until("the late tick counted", () -> counters.get(FdCounter.LATE_TICKS) > lateTicks,
                counters::toString);
        long accepted = counters.get(FdCounter.ACKS_ACCEPTED);
        Await.until("daemon 1 answered 2 * miss more rounds",
                () -> counters.get(FdCounter.ACKS_ACCEPTED) >= accepted + 2 * MISS, counters::toString);

        assertEquals(List.of(), reporter.events());
    }

    @Test
    void shouldAnswerAHeartbeatWithItsOwnWireId() throws Exception {
        FdServer fd = server("rack-7", List.of());
        try (DatagramSocket watcher = loopbackSocket()) {
            byte[] ping = new byte[HeartbeatFlyweight.LENGTH];
            new HeartbeatFlyweight().wrap(ping, 0).write(FrameType.HEARTBEAT, 99, 12L, -34L);

            watcher.send(new DatagramPacket(ping, ping.length, fd.localAddress()));
            byte[] rx = new byte[64];
            DatagramPacket answer = new DatagramPacket(rx, rx.length);
            watcher.receive(answer);

            assertEquals(FrameValidator.Verdict.OK, FrameValidator.check(rx, 0, answer.getLength()));
            HeartbeatFlyweight ack = new HeartbeatFlyweight().wrap(rx, 0);
            assertEquals(FrameType.HEARTBEAT_ACK, ack.type());
            assertEquals(Target.detectorWireId("rack-7"), ack.source());
            assertEquals(12L, ack.sequence());
            assertEquals(-34L, ack.sendTimeNs());
            assertEquals(fd.localAddress(), answer.getSocketAddress());
        }
        assertEquals(1, fd.counters().get(FdCounter.HEARTBEATS_ANSWERED));
    }

    @Test
    void shouldAnswerADetectorListedInWatchedByOnlyAtItsListedAddress() throws Exception {
        try (DatagramSocket top = loopbackSocket(); DatagramSocket rewritten = loopbackSocket();
             DatagramSocket stranger = loopbackSocket()) {
            top.setSoTimeout(5_000);
            rewritten.setSoTimeout(300);
            stranger.setSoTimeout(300);
            InetSocketAddress topAddress = (InetSocketAddress) top.getLocalSocketAddress();
            DetectorAddresses watchers = DetectorAddresses.parse("top-1@127.0.0.1:" + topAddress.getPort());
            FdConfig config = new FdConfig("rack-7", ANY_LOOPBACK_PORT, List.of(), INTERVAL_NS, MISS)
                    .withWatchedBy(watchers);
            FdServer fd = keep(new FdServer(config, reporter, group)).start();
            byte[] ping = new byte[HeartbeatFlyweight.LENGTH];
            new HeartbeatFlyweight().wrap(ping, 0).write(FrameType.HEARTBEAT, Target.detectorWireId("top-1"), 1L, 0L);

            // top-1's heartbeat sent from another socket (its source rewritten): the ack goes to top-1's address.
            rewritten.send(new DatagramPacket(ping, ping.length, fd.localAddress()));
            DatagramPacket answer = new DatagramPacket(new byte[64], 64);
            top.receive(answer);
            assertEquals(FrameType.HEARTBEAT_ACK, new HeartbeatFlyweight().wrap(answer.getData(), 0).type());
            assertThrows(java.net.SocketTimeoutException.class,
                    () -> rewritten.receive(new DatagramPacket(new byte[64], 64)), "nothing to the rewritten source");

            // A detector not listed gets nothing.
            byte[] other = new byte[HeartbeatFlyweight.LENGTH];
            new HeartbeatFlyweight().wrap(other, 0).write(FrameType.HEARTBEAT, Target.detectorWireId("top-9"), 1L, 0L);
            stranger.send(new DatagramPacket(other, other.length, fd.localAddress()));
            Await.until("the unlisted heartbeat counted", () -> fd.counters().get(FdCounter.HEARTBEATS_UNLISTED) == 1,
                    fd.counters()::toString);
            assertThrows(java.net.SocketTimeoutException.class,
                    () -> stranger.receive(new DatagramPacket(new byte[64], 64)), "nothing to an unlisted detector");
            assertEquals(1, fd.counters().get(FdCounter.HEARTBEATS_MISDIRECTED));
            assertEquals(1, fd.counters().get(FdCounter.HEARTBEATS_ANSWERED));
        }
    }

    @Test
    void shouldCountAndDropMalformedDatagramsAndIgnoreStrangersAcks() throws Exception {
        FakeDaemon one = daemon(1);
        FdServer fd = server("rack-1", List.of(one.target()));
        FdCounters counters = fd.counters();
        try (DatagramSocket stranger = loopbackSocket()) {
            byte[] heartbeat = new byte[HeartbeatFlyweight.LENGTH];
            new HeartbeatFlyweight().wrap(heartbeat, 0).write(FrameType.HEARTBEAT, 5, 1L, 0L);
            byte[] strangersAck = new byte[HeartbeatFlyweight.LENGTH];
            new HeartbeatFlyweight().wrap(strangersAck, 0).write(FrameType.HEARTBEAT_ACK, 12345, 1L, 0L);
            byte[] data = new byte[DataFlyweight.DATA_HEADER_LENGTH + 4];
            new DataFlyweight().wrap(data, 0).write(FrameType.DATA, 5, 5, 6, 7L, new byte[4], 0, 4);
            byte[][] malformed = {
                new byte[0],
                "not a ricochet frame".getBytes(StandardCharsets.US_ASCII),
                Arrays.copyOf(heartbeat, 27),
                Arrays.copyOf(heartbeat, 29),
                new byte[1600],
            };
            for (byte[] bytes : malformed) {
                stranger.send(new DatagramPacket(bytes, bytes.length, fd.localAddress()));
            }
            stranger.send(new DatagramPacket(data, data.length, fd.localAddress()));
            stranger.send(new DatagramPacket(strangersAck, strangersAck.length, fd.localAddress()));

            Await.until("every datagram counted", () -> counters.get(FdCounter.MALFORMED) == malformed.length
                    && counters.get(FdCounter.UNEXPECTED_FRAMES) == 1
                    && counters.get(FdCounter.ACKS_UNKNOWN) == 1, counters::toString);

            // The detector still works: it answers a heartbeat and keeps daemon 1 alive.
            stranger.send(new DatagramPacket(heartbeat, heartbeat.length, fd.localAddress()));
            DatagramPacket answer = new DatagramPacket(new byte[64], 64);
            stranger.receive(answer);
            assertEquals(HeartbeatFlyweight.LENGTH, answer.getLength());
        }
        long accepted = counters.get(FdCounter.ACKS_ACCEPTED);
        Await.until("daemon 1 still answered", () -> counters.get(FdCounter.ACKS_ACCEPTED) > accepted + 2,
                counters::toString);
        assertEquals(List.of(), reporter.events());
        assertEquals(0, counters.get(FdCounter.HANDLER_ERRORS));
        assertTrue(counters.get(FdCounter.DATAGRAMS_RECEIVED) >= 8, counters.toString());
    }

    static DatagramSocket loopbackSocket() throws Exception {
        DatagramSocket socket = new DatagramSocket(ANY_LOOPBACK_PORT);
        socket.setSoTimeout(30_000);
        return socket;
    }
}
