package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.netty.channel.EventLoopGroup;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.link.TcpChannels;
import io.ricochet.control.tls.TlsSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three GMS replicas in this JVM, each hosting both partitions of a GMS of two, on 127.0.0.1: clients follow the
 * leader; a leader that stops is replaced and nothing committed is lost; a replica that was away catches up; and
 * the whole GMS stopped and started again on its storage (with snapshots taken) still knows every member.
 */
class ReplicatedGmsTest {
    private static final int PARTITIONS = 2;
    private static final int EVEN = 10;
    private static final int ODD = 11;

    @TempDir
    Path storage;
    private final EventLoopGroup group = TcpChannels.newGroup(2, "test-clients");
    private final List<Replica> replicas = new ArrayList<>();
    private final GmsServer[] servers = new GmsServer[4];
    private final List<GmsClient> clients = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        for (int id = 1; id <= 3; id++) {
            replicas.add(new Replica(id, lo, freePortPair(), freePortPair()));
        }
        for (int id = 1; id <= 3; id++) {
            start(id);
        }
    }

    @AfterEach
    void tearDown() {
        clients.forEach(GmsClient::close);
        for (GmsServer s : servers) {
            if (s != null) {
                s.close();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Test
    void shouldFollowTheLeaderAndLoseNothingCommittedWhenItStops() {
        RecordingListener one = new RecordingListener();
        RecordingListener two = new RecordingListener();
        client(1, one, EVEN, ODD);
        client(2, two, EVEN, ODD);
        Await.until("both in both groups", () -> one.members(EVEN).equals(Set.of(1, 2))
                && one.members(ODD).equals(Set.of(1, 2)) && two.members(EVEN).equals(Set.of(1, 2)));
        long evenViewId = one.viewId(EVEN);

        int leader = leaderOf(0);
        Await.until("node 1 told partition 0's term and commit index by its leader", () -> {
            Object[] s = one.status.get(0);
            return s != null && replicas.get(leader - 1).controlAddress(0).equals(s[0]) && (long) s[1] >= 1
                    && (long) s[2] > 0;
        });
        long termBefore = (long) one.status.get(0)[1];
        servers[leader].close();
        servers[leader] = null;

        RecordingListener three = new RecordingListener();
        client(3, three, EVEN, ODD);
        Await.until("node 3 joins both groups through the new leaders, with nodes 1 and 2 still in them",
                () -> three.members(EVEN).equals(Set.of(1, 2, 3)) && three.members(ODD).equals(Set.of(1, 2, 3)));
        Await.until("nodes 1 and 2 back with the new leader and told of node 3",
                () -> one.members(EVEN).equals(Set.of(1, 2, 3)) && two.members(ODD).equals(Set.of(1, 2, 3)));
        assertTrue(three.viewId(EVEN) > evenViewId, "view ids go on from the replicated state");
        int newLeader = leaderOf(0);
        Await.until("node 1 told the new leader's term", () -> {
            Object[] s = one.status.get(0);
            return replicas.get(newLeader - 1).controlAddress(0).equals(s[0]) && (long) s[1] > termBefore;
        });
        for (int g : new int[] {EVEN, ODD}) {
            assertTrue(one.count(io.ricochet.control.message.MemberEventKind.JOIN, g, 3) <= 1,
                    "node 1 heard node 3's JOIN at most once (else in a view): " + one);
        }

        start(leader);
        Await.until("the restarted replica applies what it missed", () -> applied(leader, 0) >= applied(
                leaderOf(0), 0) && applied(leader, 0) > 0);
    }

    @Test
    void shouldKeepTheMembershipAcrossARestartOfEveryReplicaFromItsStorage() throws IOException {
        for (int id = 1; id <= 3; id++) {
            servers[id].close();
        }
        for (int id = 1; id <= 3; id++) {
            start(id, 100);
        }
        RecordingListener one = new RecordingListener();
        GmsClient churner = client(1, one, EVEN);
        Await.until("node 1 in", () -> one.members(EVEN).equals(Set.of(1)));
        // 300 changes: at least two snapshots (every 100 entries) and a log behind the last one.
        for (int i = 0; i < 150; i++) {
            churner.join(1000 + 2 * i, 0);
            churner.leave(1000 + 2 * i);
        }
        RecordingListener two = new RecordingListener();
        client(2, two, EVEN);
        Await.until("node 2 in with node 1", () -> two.members(EVEN).equals(Set.of(1, 2)));
        Await.until("the churn committed",
                () -> one.count(io.ricochet.control.message.MemberEventKind.LEAVE, 1298, 1) == 1);
        clients.forEach(GmsClient::close);
        clients.clear();
        for (int id = 1; id <= 3; id++) {
            servers[id].close();
        }

        for (int id = 1; id <= 3; id++) {
            start(id, 100);
        }
        RecordingListener three = new RecordingListener();
        client(3, three, EVEN);
        Await.until("node 3 joins and finds nodes 1 and 2, remembered across the restart",
                () -> three.members(EVEN).equals(Set.of(1, 2, 3)));
        assertTrue(three.members(1000).isEmpty(), "the churned groups are gone");
    }

    private GmsClient client(int node, RecordingListener listener, int... groups) {
        List<List<InetSocketAddress>> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            List<InetSocketAddress> at = new ArrayList<>();
            for (Replica r : replicas) {
                at.add(r.controlAddress(p));
            }
            partitions.add(at);
        }
        GmsClient client = new GmsClient(node, RecordingListener.unicast(node), RecordingListener.incarnation(node),
                partitions, listener, group, TlsSettings.insecure());
        for (int g : groups) {
            client.join(g, 0);
        }
        client.start();
        clients.add(client);
        return client;
    }

    private void start(int id) {
        start(id, RaftSettings.DEFAULT.snapshotEvery());
    }

    private void start(int id, long snapshotEvery) {
        Inet4Address base = (Inet4Address) InetAddresses.forString("239.255.0.0");
        GmsConfig config = new GmsConfig(PARTITIONS, List.of(0, 1), replicas, id, new MulticastPool(base, 9100), 60,
                TlsSettings.insecure(), storage.resolve("r" + id), new RaftSettings(200, snapshotEvery));
        servers[id] = new GmsServer(config);
        try {
            servers[id].start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int leaderOf(int partition) {
        int[] found = new int[1];
        Await.until("a leader of partition " + partition, () -> {
            for (int id = 1; id <= 3; id++) {
                if (servers[id] != null && servers[id].isLeader(partition)) {
                    found[0] = id;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private long applied(int id, int partition) {
        String status = servers[id].raftStatus(partition);
        int at = status.indexOf("applied=");
        return at < 0 ? -1 : Long.parseLong(status.substring(at + 8).split(" ")[0]);
    }

    /** A port p with p + 1 free as well (a replica serves its two partitions on p and p + 1). */
    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                 ServerSocket b = new ServerSocket(a.getLocalPort() + 1, 1, InetAddress.getLoopbackAddress())) {
                return a.getLocalPort();
            } catch (IOException taken) {
                // p + 1 is in use: try another p.
            }
        }
        throw new IOException("no two adjacent free ports on 127.0.0.1");
    }
}
