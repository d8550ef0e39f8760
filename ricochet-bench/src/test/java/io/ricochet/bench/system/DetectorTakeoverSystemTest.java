package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Racks from the GMS and detector takeover, with real processes: 4 daemons in 2 racks (they register their rack
 * with the GMS), a rack detector per rack that learns its daemons from the GMS (no static list), a standby detector
 * and a top-level detector watching the three. The detector of rack 2 is killed with SIGKILL: the top-level
 * detector reports it, the GMS moves rack 2 to the standby, and a daemon of rack 2 that crashes afterwards is
 * still reported and removed from its groups.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DetectorTakeoverSystemTest {
    private static final int GROUP = 10;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int RACK_1_PORT = ProcessCluster.FD_PORT + 1;
    private static final int RACK_2_PORT = ProcessCluster.FD_PORT + 2;
    private static final int STANDBY_PORT = ProcessCluster.FD_PORT + 3;
    private static final int TOP_PORT = ProcessCluster.FD_PORT + 4;

    private ProcessCluster cluster;
    private final Map<Integer, Traffic> apps = new TreeMap<>();

    @BeforeAll
    void startCluster() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        cluster = new ProcessCluster("detector-takeover", 1);
        cluster.startGms();
        for (int node = 1; node <= 4; node++) {
            cluster.startDaemon(node, "--rack", node <= 2 ? "1" : "2");
        }
        cluster.startDetector("rack-1", RACK_1_PORT, "--rack", "1");
        cluster.startDetector("rack-2", RACK_2_PORT, "--rack", "2");
        cluster.startDetector("standby-1", STANDBY_PORT, "--standby");
        cluster.startDetector("top-1", TOP_PORT, "--watch-detectors", "rack-1@127.0.0.1:" + RACK_1_PORT
                + ",rack-2@127.0.0.1:" + RACK_2_PORT + ",standby-1@127.0.0.1:" + STANDBY_PORT);
        for (int node = 1; node <= 4; node++) {
            Traffic app = new Traffic(node);
            app.join(GROUP);
            apps.put(node, app);
        }
        for (int node = 1; node <= 4; node++) {
            int n = node;
            ProcessCluster.await(DEADLINE, "node " + n + " to see the other 3 in group " + GROUP,
                    () -> apps.get(n).members(GROUP).size() == 3);
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
    void shouldHaveTheStandbyWatchRackTwoOnceItsDetectorDiesAndReportACrashThere() throws Exception {
        ProcessCluster.await(DEADLINE, "rack-2's detector to watch its 2 daemons from the GMS",
                () -> cluster.log("gms-0").contains("failure detector 'rack-2' watches rack 2 (2 daemon(s) now)")
                        || cluster.log("fd-rack-2").contains("watching 2 daemons"));
        cluster.crash("fd-rack-2");
        ProcessCluster.await(DEADLINE, "the top-level detector to report rack-2 failed and the GMS to commit it",
                () -> cluster.log("gms-0").contains("failure detector 'rack-2' failed"));
        ProcessCluster.await(DEADLINE, "the standby to watch rack 2's daemons",
                () -> cluster.log("fd-standby-1").contains("watching 2 daemons"));

        cluster.crash("daemon-4");
        for (int node = 1; node <= 3; node++) {
            int n = node;
            ProcessCluster.await(DEADLINE, "node " + n + " to see node 4 fail",
                    () -> !apps.get(n).members(GROUP).contains(4));
        }
        assertTrue(cluster.log("fd-standby-1").lines().anyMatch(l -> l.contains("FAILED") && l.contains("node 4")),
                "the standby reported node 4:\n" + cluster.log("fd-standby-1"));
        assertTrue(cluster.log("fd-rack-1").lines().noneMatch(l -> l.contains("FAILED") && l.contains("node 4")),
                "rack 1's detector was not the one told to watch rack 2");
        apps.remove(4).close();
    }
}
