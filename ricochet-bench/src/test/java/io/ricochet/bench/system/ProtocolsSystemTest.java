package io.ricochet.bench.system;

import io.ricochet.daemon.DaemonCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each of the other protocols (qsm included) on real multicast sockets, run by the same daemon: one GMS partition
 * and three daemon processes in one group, every node sending, 5 % loss injected at every receiver. Every message
 * must reach every other member exactly once (pbcast may report a message lost when it ages out; then it must say so).
 * QSM runs twice: as one flat ring, and with four daemons split into two partitions of 2 (a partition ring each and
 * a ring of their leaders) with a 0.5 ms token hold, through the daemon's settings.
 */
class ProtocolsSystemTest {
    private static final int GROUP = 20;
    private static final int MESSAGES = 100;

    @ParameterizedTest(name = "{0} on {1} daemons {2}")
    @CsvSource({"srm,3,", "fec,3,", "pbcast,3,", "qsm,3,", "qsm,4,--qsm-partition-size 2 --qsm-token-interval-ms 0.5"})
    void shouldDeliverEveryMessageOnceOverRealSockets(String protocol, int daemons, String settings) throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        List<Traffic> apps = new ArrayList<>();
        List<String> flags = new ArrayList<>(List.of("--protocol", protocol, "--inject-loss", "uniform:0.05"));
        if (settings != null) {
            flags.addAll(List.of(settings.split(" ")));
        }
        String name = "protocol-" + protocol + (settings == null ? "" : "-tuned");
        try (ProcessCluster cluster = new ProcessCluster(name, 1)) {
            cluster.startGms();
            for (int node = 1; node <= daemons; node++) {
                cluster.startDaemon(node, flags.toArray(String[]::new));
            }
            for (int node = 1; node <= daemons; node++) {
                Traffic app = new Traffic(node);
                app.join(GROUP);
                apps.add(app);
            }
            for (Traffic app : apps) {
                ProcessCluster.await(Duration.ofSeconds(60), "node " + app.node + " to see the others",
                        () -> app.members(GROUP).size() == daemons - 1);
            }
            List<Traffic.Id> sent = new ArrayList<>();
            for (Traffic app : apps) {
                sent.addAll(app.send(GROUP, MESSAGES));
            }
            for (Traffic app : apps) {
                List<Traffic.Id> expected = sent.stream().filter(id -> id.origin() != app.node).toList();
                ProcessCluster.await(Duration.ofSeconds(60), protocol + ": node " + app.node + " to get or be told "
                        + "about all " + expected.size() + " messages",
                        () -> expected.stream().allMatch(id -> app.received.containsKey(id) || app.lostCovers(id)));
                for (Traffic.Id id : expected) {
                    assertTrue(app.received.getOrDefault(id, 0) <= 1, protocol + ": " + id + " delivered twice");
                    assertFalse(app.received.containsKey(id) && app.lostCovers(id), protocol + ": " + id
                            + " delivered AND lost");
                }
                assertEquals(0, app.corrupt.get(), protocol + ": corrupted payload at node " + app.node);
                if (!protocol.equals("pbcast")) {
                    assertEquals(0, app.lostNotices.get(), protocol + ": a message was given up");
                }
                assertEquals(expected.size(), app.received.size()
                        + expected.stream().filter(app::lostCovers).count());
            }
            long injected = 0;
            for (Traffic app : apps) {
                assertEquals(protocol, app.client.stats().protocol());
                injected += app.counter(DaemonCounter.INJECTED_DROPS);
            }
            assertTrue(injected > 0, protocol + ": the daemons must have dropped packets");
        } finally {
            apps.forEach(Traffic::close);
        }
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseToMixProtocolsInOneGroupWithAClearError() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("protocol-mix", 1)) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(2, "--protocol", "srm");
            try (Traffic ricochet = new Traffic(1); Traffic srm = new Traffic(2)) {
                ricochet.join(GROUP);
                io.ricochet.api.ApiException refused = org.junit.jupiter.api.Assertions.assertThrows(
                        io.ricochet.api.ApiException.class, () -> srm.join(GROUP));
                assertTrue(refused.getMessage().contains("PROTOCOL_MISMATCH"), refused.getMessage());
            }
        }
    }
}
