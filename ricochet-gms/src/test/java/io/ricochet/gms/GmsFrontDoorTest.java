package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.Register;
import io.ricochet.control.tls.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GMS's front door (issue 33): connections over the cap per address and over the total cap are closed as they
 * are accepted and counted, while daemons with the cluster's certificates register and are served; a connection
 * that never finishes its TLS handshake is closed after the handshake timeout and counted; a burst of JOIN/LEAVE
 * from one session, far larger than the Raft leader's queue, is served whole and in order, the session open.
 */
class GmsFrontDoorTest {
    private static final int G = 4;
    private static final int OTHER_GROUP = 8;
    private static final int TOTAL = 8;
    private static final int PER_ADDRESS = 3;
    /** Long enough that a connection without a handshake holds its place for the whole test. */
    private static final int NO_TIMEOUT_MS = 60_000;

    @TempDir
    static Path certs;

    private GmsCluster cluster;
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeAll
    static void makeCertificates() throws Exception {
        TestCertificates.make(certs, "gms:gms-p0", "daemon:node-1", "daemon:node-2", "daemon:node-3");
    }

    @AfterEach
    void tearDown() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldCloseAndCountConnectionsOverEachCapWhileDaemonsWithCertificatesAreServed() throws Exception {
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "gms-p0"), c -> c.withFrontDoor(
                new FrontDoorSettings(TOTAL, PER_ADDRESS, NO_TIMEOUT_MS, 64)));
        RecordingListener one = new RecordingListener();
        client(1, one);
        Await.until(() -> "node 1 in: " + one, () -> one.members(G).equals(Set.of(1)));
        InetSocketAddress gms = cluster.addresses().get(0);

        // One address opens more connections than the whole socket takes: it gets its share, no more.
        long admitted = server().counter(GmsCounter.CONNECTIONS);
        List<Socket> flood = connect("127.0.0.2", gms, 10);
        Await.until("7 over the cap per address", () -> counter(GmsCounter.CONNECTIONS_OVER_ADDRESS) == 7);
        Await.until("3 admitted", () -> counter(GmsCounter.CONNECTIONS) == admitted + PER_ADDRESS);
        Await.until("the GMS closed the 7", () -> closedByServer(flood) == 7);
        // So a daemon from elsewhere still gets in (here the GMS's own host, held only to the total).
        RecordingListener two = new RecordingListener();
        GmsClient clientTwo = client(2, two);
        Await.until(() -> "node 1 hears node 2 join: " + one, () -> one.hasEvent(MemberEventKind.JOIN, G, 2));

        // Other addresses fill the socket (1 + 3 + 1 + 3 = 8); beyond that nobody gets in.
        List<Socket> third = connect("127.0.0.3", gms, 3);
        Await.until("3 more admitted", () -> counter(GmsCounter.CONNECTIONS) == admitted + 2 * PER_ADDRESS + 1);
        List<Socket> fourth = connect("127.0.0.4", gms, 2);
        Await.until("2 over the total", () -> counter(GmsCounter.CONNECTIONS_OVER_TOTAL) == 2);
        Await.until("the GMS closed the 2", () -> closedByServer(fourth) == 2);
        assertEquals(0, closedByServer(third), "the third address's connections were admitted");
        assertEquals(7, counter(GmsCounter.CONNECTIONS_OVER_ADDRESS));

        // The sessions inside are served while the socket is full.
        clientTwo.join(OTHER_GROUP, 0);
        Await.until(() -> "node 2 in group " + OTHER_GROUP + ": " + two, () -> two.hasView(OTHER_GROUP, Set.of(2)));
        // Closed connections give their places back: a third daemon gets in.
        for (Socket s : flood) {
            s.close();
        }
        for (Socket s : third) {
            s.close();
        }
        RecordingListener three = new RecordingListener();
        client(3, three);
        Await.until(() -> "node 1 hears node 3 join: " + one, () -> one.hasEvent(MemberEventKind.JOIN, G, 3));
        assertEquals(Set.of(1, 2, 3), one.members(G));
        assertEquals(3, counter(GmsCounter.REGISTRATIONS));
        assertEquals(0, counter(GmsCounter.HANDSHAKE_TIMEOUTS));
    }

    @Test
    void shouldCloseAndCountAConnectionThatNeverFinishesItsHandshake() throws Exception {
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "gms-p0"), c -> c.withFrontDoor(
                new FrontDoorSettings(FrontDoorSettings.DEFAULT_MAX_CONNECTIONS,
                        FrontDoorSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, 300, 64)));
        RecordingListener one = new RecordingListener();
        client(1, one);
        Await.until(() -> "node 1 in: " + one, () -> one.members(G).equals(Set.of(1)));
        long timeouts = counter(GmsCounter.HANDSHAKE_TIMEOUTS);
        long failures = counter(GmsCounter.TLS_FAILURES);
        try (Socket idle = new Socket()) {
            idle.connect(cluster.addresses().get(0));
            // Sends nothing, not even a ClientHello; the GMS closes it (perhaps after a TLS alert).
            assertTrue(readsToEnd(idle));
        }
        Await.until("the timeout counted", () -> counter(GmsCounter.HANDSHAKE_TIMEOUTS) == timeouts + 1);
        assertEquals(failures, counter(GmsCounter.TLS_FAILURES), "a timeout is counted as such, not as a failure");
        RecordingListener two = new RecordingListener();
        client(2, two);
        Await.until(() -> "node 1 hears node 2 join: " + one, () -> one.hasEvent(MemberEventKind.JOIN, G, 2));
    }

    @Test
    void shouldServeABurstFarLargerThanTheRaftQueueInOrderWithoutClosingTheSession() throws Exception {
        int raftQueue = 4;
        cluster = new GmsCluster(1, io.ricochet.control.tls.TlsSettings.insecure(), c -> c
                .withRaft(new RaftSettings(500, 10_000, raftQueue))
                .withFrontDoor(new FrontDoorSettings(FrontDoorSettings.DEFAULT_MAX_CONNECTIONS,
                        FrontDoorSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, 1000, 8)));
        int node = 5;
        int groups = 300;
        // JOIN every group; LEAVE every third right after its JOIN and, at the end, every group g = 1 mod 3: the
        // node must end in the groups g = 2 mod 3, which it does only if no LEAVE overtook its JOIN.
        List<ControlMessage> burst = new ArrayList<>();
        burst.add(register(node));
        Map<Integer, List<MemberEventKind>> expected = new HashMap<>();
        for (int g = 1; g <= groups; g++) {
            burst.add(new Join(g, node, 0));
            expected.computeIfAbsent(g, k -> new ArrayList<>()).add(MemberEventKind.JOIN);
            if (g % 3 == 0) {
                burst.add(new Leave(g, node));
                expected.get(g).add(MemberEventKind.LEAVE);
            }
        }
        for (int g = 1; g <= groups; g += 3) {
            burst.add(new Leave(g, node));
            expected.get(g).add(MemberEventKind.LEAVE);
        }
        int requests = burst.size();
        assertTrue(requests > 100 * raftQueue, "the burst is far larger than the Raft queue");
        Set<Integer> remaining = new TreeSet<>();
        for (int g = 2; g <= groups; g += 3) {
            remaining.add(g);
        }
        try (RawSession session = new RawSession(cluster.addresses().get(0))) {
            session.sendBytes(frames(burst));   // all at once: the GMS reads faster than Raft commits
            Map<Integer, List<MemberEventKind>> events = new HashMap<>();
            Set<Integer> viewed = new HashSet<>();
            int replies = 0;
            int expectedReplies = requests - 1 + groups;   // an event per JOIN and LEAVE, and a view per JOIN
            while (replies < expectedReplies) {
                ControlMessage reply = session.receive();
                if (reply == null) {
                    throw new AssertionError("the GMS closed the session after " + replies + " of "
                            + expectedReplies + " replies");
                }
                if (reply instanceof MemberEvent e) {
                    assertEquals(node, e.nodeId(), e.toString());
                    events.computeIfAbsent(e.group(), k -> new ArrayList<>()).add(e.kind());
                    replies++;
                } else if (reply instanceof GroupView v) {
                    assertTrue(viewed.add(v.group()), "one view per JOIN: " + v);
                    assertEquals(Set.of(node), v.members().keySet(), v.toString());
                    replies++;
                }
            }
            assertEquals(expected, events, "every JOIN and LEAVE answered once, in the order sent");
            // The same session goes on: REGISTER again gets a view of each group the node is in, then one more JOIN.
            session.send(register(node));
            session.send(new Join(groups + 1, node, 0));
            Set<Integer> snapshot = new TreeSet<>();
            while (true) {
                GroupView view = session.receive(GroupView.class);
                if (view.group() == groups + 1) {
                    break;
                }
                snapshot.add(view.group());
            }
            assertEquals(remaining, snapshot);
        }
        assertEquals(0, counter(GmsCounter.UNCOMMITTED), "Raft never refused a request");
        assertEquals(groups + 1, counter(GmsCounter.JOINS));
        assertEquals(requests - 1 - groups, counter(GmsCounter.LEAVES));
        assertTrue(counter(GmsCounter.SESSION_PAUSES) > 0, "the session was paused, not closed");
        assertTrue(counter(GmsCounter.RAFT_WINDOW_WAITS) > 0, "requests waited for room in the Raft queue");
    }

    private GmsClient client(int node, RecordingListener listener) {
        return cluster.client(node, RecordingListener.incarnation(node), listener, cluster.addresses(),
                TestCertificates.settings(certs, "node-" + node), G);
    }

    private GmsServer server() {
        return cluster.server(0);
    }

    private long counter(GmsCounter counter) {
        return server().counter(counter);
    }

    /** {@code count} TCP connections to {@code gms} from the local address {@code source}; they send nothing. */
    private List<Socket> connect(String source, InetSocketAddress gms, int count) throws IOException {
        List<Socket> opened = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket s = new Socket();
            sockets.add(s);
            s.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            s.connect(gms);
            opened.add(s);
        }
        return opened;
    }

    /** How many of {@code connections} the GMS has closed (end of stream or a reset); a silent one is open. */
    private static int closedByServer(List<Socket> connections) {
        int closed = 0;
        for (Socket s : connections) {
            try {
                s.setSoTimeout(20);
                if (s.getInputStream().read() < 0) {
                    closed++;
                }
            } catch (SocketTimeoutException silent) {
                continue;
            } catch (IOException reset) {
                closed++;
            }
        }
        return closed;
    }

    /** Whether the peer closes {@code socket}: reads (up to 10 s of silence) until end of stream or a reset. */
    private static boolean readsToEnd(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        try {
            while (socket.getInputStream().read() >= 0) {
                continue;
            }
        } catch (SocketException reset) {
            // A reset is a close too.
        }
        return true;
    }

    private static byte[] frames(List<ControlMessage> messages) {
        ByteBuf buf = Unpooled.buffer();
        messages.forEach(m -> ControlCodec.encode(m, buf));
        return ByteBufUtil.getBytes(buf);
    }

    private static Register register(int node) {
        return new Register(node, RecordingListener.unicast(node), RecordingListener.incarnation(node));
    }
}
