package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The replicated GMS with real processes: 2 partitions, each a Raft group over 3 replica processes, a rack failure
 * detector and 4 daemons, on loopback in the test's private namespace. The leader of a partition is killed with
 * SIGKILL while the daemons join and leave groups of both partitions as fast as their applications can and send
 * data in two groups: every join or leave the API acknowledged holds afterwards, every daemon's view of every group
 * converges, and the data is delivered exactly once throughout. Then a daemon crashes while the leader is down
 * (killed again at the same moment): it is removed from its groups once a new leader is elected, with the dead
 * replica left dead.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GmsFailoverSystemTest {
    /** Data groups: 10 on partition 0, 11 on partition 1; every node is in both. */
    private static final int[] DATA = {10, 11};
    /** Groups the applications join and leave during the failover, spread over both partitions. */
    private static final int[] CHURN = {20, 21, 22, 23, 24, 25};
    private static final int NODES = 4;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private ProcessCluster cluster;
    private final Map<Integer, Traffic> apps = new TreeMap<>();

    @BeforeAll
    void startCluster() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        cluster = new ProcessCluster("gms-failover", 2, 3);
        cluster.startGms();
        List<Integer> nodes = new ArrayList<>();
        for (int node = 1; node <= NODES; node++) {
            cluster.startDaemon(node, "--inject-loss", "uniform:0.02");
            nodes.add(node);
        }
        cluster.startFd(nodes);
        for (int node = 1; node <= NODES; node++) {
            Traffic app = new Traffic(node);
            app.join(DATA);
            apps.put(node, app);
        }
        for (int node = 1; node <= NODES; node++) {
            int n = node;
            for (int group : DATA) {
                ProcessCluster.await(DEADLINE, "node " + n + " to see every member of group " + group,
                        () -> apps.get(n).members(group).size() == NODES - 1);
            }
        }
    }

    @AfterAll
    void stopCluster() {
        apps.values().forEach(Traffic::close);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void shouldKeepEveryAcknowledgedChangeAndDeliverExactlyOnceAcrossALeaderKill() throws Exception {
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicInteger acknowledged = new AtomicInteger();
        // (node, group) -> whether the node is in the group by its last acknowledged JOIN or LEAVE.
        Map<List<Integer>, Boolean> expected = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int node = 1; node <= NODES; node++) {
            int n = node;
            threads.add(new Thread(() -> churn(n, churning, acknowledged, expected), "churn-" + n));
        }
        List<Traffic.Id> sent = java.util.Collections.synchronizedList(new ArrayList<>());
        threads.add(new Thread(() -> sendData(1, sent), "data-1"));
        threads.add(new Thread(() -> sendData(2, sent), "data-2"));
        threads.forEach(Thread::start);

        ProcessCluster.await(DEADLINE, "40 acknowledged joins and leaves before the kill",
                () -> acknowledged.get() >= 40);
        String leader = leaderOf(0);
        int before = acknowledged.get();
        cluster.crash(leader);
        ProcessCluster.await(DEADLINE, "40 more acknowledged joins and leaves after killing " + leader,
                () -> acknowledged.get() >= before + 40);
        churning.set(false);
        for (Thread t : threads) {
            t.join();
        }

        for (int group : CHURN) {
            Set<Integer> in = new TreeSet<>();
            expected.forEach((key, member) -> {
                if (key.get(1) == group && member) {
                    in.add(key.get(0));
                }
            });
            for (int node : in) {
                List<Integer> others = in.stream().filter(m -> m != node).toList();
                ProcessCluster.await(DEADLINE, "node " + node + "'s view of group " + group + " to be " + others,
                        () -> new TreeSet<>(apps.get(node).members(group)).equals(new TreeSet<>(others)));
            }
        }
        for (int node = 1; node <= NODES; node++) {
            Traffic app = apps.get(node);
            int n = node;
            List<Traffic.Id> mine = sent.stream().filter(id -> id.origin() != n).toList();
            ProcessCluster.await(DEADLINE, "node " + node + " to receive " + mine.size() + " messages",
                    () -> mine.stream().allMatch(app.received::containsKey));
            for (Traffic.Id id : mine) {
                assertEquals(1, app.received.get(id), "node " + node + " got " + id + " more than once");
            }
            assertEquals(0, app.corrupt.get(), "node " + node + " got a corrupted payload");
        }
        ProcessCluster.await(DEADLINE, "node 1's stats to show partition 0 served by a new leader of a later term",
                () -> {
                    var link = apps.get(1).client.stats().gms().get(0);
                    return link != null && link.up() && link.term() >= 2 && link.commitIndex() > 0
                            && !link.leader().endsWith(":" + ProcessCluster.gmsPort(replicaOf(leader), 0));
                });
        restartKilled(leader);
    }

    private static int replicaOf(String name) {
        return Integer.parseInt(name.substring("gms-r".length()));
    }

    @Test
    @Order(2)
    void shouldRemoveADaemonThatCrashedWhileTheLeaderWasDownOnceANewOneIsElected() throws Exception {
        String leader = leaderOf(0);
        cluster.crash(leader);
        cluster.crash("daemon-" + NODES);
        for (int node = 1; node < NODES; node++) {
            int n = node;
            for (int group : DATA) {
                ProcessCluster.await(DEADLINE, "node " + n + " to see node " + NODES + " leave group " + group,
                        () -> !apps.get(n).members(group).contains(NODES));
            }
        }
        assertTrue(!cluster.isAlive(leader), leader + " stayed dead while the failure was handled");
        apps.remove(NODES).close();
    }

    /** Toggles this node's membership of random churn groups until told to stop, recording what was confirmed. */
    private void churn(int node, AtomicBoolean churning, AtomicInteger acknowledged,
                       Map<List<Integer>, Boolean> expected) {
        SplittableRandom rnd = new SplittableRandom(node);
        Traffic app = apps.get(node);
        while (churning.get()) {
            int group = CHURN[rnd.nextInt(CHURN.length)];
            List<Integer> key = List.of(node, group);
            boolean member = expected.getOrDefault(key, false);
            try {
                if (member) {
                    app.client.leave(group);
                } else {
                    app.client.join(group);
                }
                expected.put(key, !member);
                acknowledged.incrementAndGet();
            } catch (ApiException e) {
                // No leader to confirm the join in time (UNAVAILABLE): the daemon takes it back; not a member.
                assertEquals(ApiException.Code.UNAVAILABLE, e.code(), e.getMessage());
                expected.put(key, false);
            }
        }
    }

    private void sendData(int node, List<Traffic.Id> sent) {
        try {
            for (int round = 0; round < 20; round++) {
                for (int group : DATA) {
                    sent.addAll(apps.get(node).send(group, 10));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The replica process that says it leads {@code partition} in its latest leader line. */
    private String leaderOf(int partition) {
        String[] found = new String[1];
        ProcessCluster.await(DEADLINE, "a leader of partition " + partition, () -> {
            for (String name : cluster.gmsNames()) {
                if (!cluster.isAlive(name)) {
                    continue;
                }
                String last = cluster.log(name).lines()
                        .filter(l -> l.contains("partition " + partition + ": leader is now"))
                        .reduce((a, b) -> b).orElse("");
                if (last.contains("(this replica)")) {
                    found[0] = name;
                    return true;
                }
            }
            return false;
        });
        assertNotNull(found[0]);
        return found[0];
    }

    private void restartKilled(String replica) throws Exception {
        cluster.restartGms(cluster.gmsNames().indexOf(replica));
        ProcessCluster.await(DEADLINE, replica + " to catch up with the leader",
                () -> cluster.log(replica).contains("partition 0: leader is now")
                        && cluster.log(replica).contains("partition 1: leader is now"));
    }
}
