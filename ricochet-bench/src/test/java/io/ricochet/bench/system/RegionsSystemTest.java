package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.daemon.DaemonCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * QSM regions end to end (docs/design/regions.md): a GMS with --regions and four daemons in two overlapping groups,
 * A = {1, 2, 3} and B = {2, 3, 4}. With a minimum region size of 1 the regions are {1} (A only), {2, 3} (A and B)
 * and {4} (B only): each node listens on one region address and each message goes once to each region of its
 * group. Every message must reach every other member of its group exactly once, also after node 1 joins B and so
 * moves to the region of A and B. The same run without regions (each group its own address) is the control.
 */
class RegionsSystemTest {
    private static final int A = 30;
    private static final int B = 31;
    private static final int MESSAGES = 60;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void shouldDeliverEveryMessageOnceThroughRegionsAndAfterANodeMovesRegion(boolean regions) throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        List<Traffic> apps = new ArrayList<>();
        try (ProcessCluster cluster = new ProcessCluster("regions-" + (regions ? "on" : "off"), 1)) {
            cluster.startGms(regions ? new String[] {"--regions", "--min-region-size", "1"} : new String[0]);
            for (int node = 1; node <= 4; node++) {
                cluster.startDaemon(node);
                apps.add(new Traffic(node));
            }
            Map<Integer, int[]> groupsOf = Map.of(1, new int[] {A}, 2, new int[] {A, B}, 3, new int[] {A, B},
                    4, new int[] {B});
            for (Traffic app : apps) {
                app.join(groupsOf.get(app.node));
            }
            awaitMembers(apps, A, List.of(1, 2, 3));
            awaitMembers(apps, B, List.of(2, 3, 4));
            if (regions) {
                // Node 2 listens on a region address (the region pool), not on its groups' own (239.255.0.30/31).
                cluster.awaitLog("daemon-2", "at /239.254.");
                assertTrue(!cluster.log("daemon-2").contains("at /239.255."), "node 2 joined a group address");
            }
            exchange(apps, Map.of(A, List.of(1, 2, 3), B, List.of(2, 3, 4)));

            // Node 2 keeps sending to A while node 1 joins B and so moves to another region of A: what is sent to
            // A's old address after node 1 left it is missed there and recovered (NAK) like any loss.
            List<Traffic.Id> during = new ArrayList<>();
            Thread sender = new Thread(() -> {
                try {
                    during.addAll(apps.get(1).send(A, 10 * MESSAGES));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "sender-during-move");
            sender.start();
            apps.get(0).join(B);
            awaitMembers(apps, B, List.of(1, 2, 3, 4));
            sender.join();
            assertEquals(10 * MESSAGES, during.size());
            check(apps, during, Map.of(A, List.of(1, 2, 3), B, List.of(1, 2, 3, 4)));
            if (regions) {
                // Node 1's region for A changed from {A} to {A, B}: it joined A's second address.
                ProcessCluster.await(Duration.ofSeconds(60), "node 1 to move to A and B's region",
                        () -> cluster.log("daemon-1").split("joined group " + A + " at /239.254.", -1).length == 3);
            }
            exchange(apps, Map.of(A, List.of(1, 2, 3), B, List.of(1, 2, 3, 4)));
            assertEquals(regions, cluster.log("gms-0").contains("regions on"), "the GMS runs with regions or not");
        } finally {
            apps.forEach(Traffic::close);
        }
    }

    /**
     * QSM's rings along the regions, on real sockets: six daemons running qsm (partitions of at most 3) under 5 %
     * injected loss, A = {1..6} and B = {1, 3, 5}, so A spans the regions {1, 3, 5} and {2, 4, 6}, which are its
     * partitions (without regions they would be {1, 2, 3} and {4, 5, 6}). Every message exactly once, none given up.
     */
    @Test
    void shouldRecoverThroughQsmPartitionsThatFollowTheRegions() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        List<Traffic> apps = new ArrayList<>();
        try (ProcessCluster cluster = new ProcessCluster("regions-qsm", 1)) {
            cluster.startGms("--regions", "--min-region-size", "1");
            for (int node = 1; node <= 6; node++) {
                cluster.startDaemon(node, "--protocol", "qsm", "--qsm-partition-size", "3",
                        "--qsm-token-interval-ms", "0.5", "--inject-loss", "uniform:0.05");
                apps.add(new Traffic(node));
            }
            for (Traffic app : apps) {
                app.join(app.node % 2 == 1 ? new int[] {A, B} : new int[] {A});
            }
            List<Integer> all = List.of(1, 2, 3, 4, 5, 6);
            List<Integer> odd = List.of(1, 3, 5);
            awaitMembers(apps, A, all);
            awaitMembers(apps, B, odd);
            cluster.awaitLog("daemon-2", "at /239.254.");
            exchange(apps, Map.of(A, all, B, odd));
            long injected = 0;
            for (Traffic app : apps) {
                injected += app.counter(DaemonCounter.INJECTED_DROPS);
            }
            assertTrue(injected > 0, "the daemons must have dropped packets");
        } finally {
            apps.forEach(Traffic::close);
        }
    }

    private static void awaitMembers(List<Traffic> apps, int group, List<Integer> members) {
        for (Traffic app : apps) {
            if (members.contains(app.node)) {
                List<Integer> others = members.stream().filter(n -> n != app.node).toList();
                ProcessCluster.await(Duration.ofSeconds(60), "node " + app.node + " to see " + others + " in "
                        + group, () -> app.members(group).containsAll(others));
            }
        }
    }

    /** Every member sends to each of its groups; every other member gets each message exactly once. */
    private static void exchange(List<Traffic> apps, Map<Integer, List<Integer>> members) throws Exception {
        List<Traffic.Id> sent = new ArrayList<>();
        for (Traffic app : apps) {
            for (Map.Entry<Integer, List<Integer>> g : members.entrySet()) {
                if (g.getValue().contains(app.node)) {
                    sent.addAll(app.send(g.getKey(), MESSAGES));
                }
            }
        }
        check(apps, sent, members);
    }

    /** Every other member of its group gets each of {@code sent} exactly once, and nothing of other groups. */
    private static void check(List<Traffic> apps, List<Traffic.Id> sent, Map<Integer, List<Integer>> members) {
        for (Traffic app : apps) {
            List<Traffic.Id> expected = sent.stream().filter(id -> id.origin() != app.node
                    && members.get(id.group()).contains(app.node)).toList();
            ProcessCluster.await(Duration.ofSeconds(60), "node " + app.node + " to get all " + expected.size()
                    + " messages of its groups", () -> expected.stream().allMatch(app.received::containsKey));
            for (Traffic.Id id : expected) {
                assertEquals(1, (int) app.received.get(id), id + " delivered more than once at node " + app.node);
            }
            assertTrue(app.received.keySet().stream().allMatch(id -> members.get(id.group()).contains(app.node)),
                    "node " + app.node + " got a message of a group it is not in");
            assertEquals(0, app.corrupt.get(), "corrupted payload at node " + app.node);
            assertEquals(0, app.lostNotices.get(), "a message was given up at node " + app.node);
        }
    }
}
