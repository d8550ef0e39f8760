package io.ricochet.bench.perturb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.BenchCli;
import io.ricochet.workload.DeliveryTimeline;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench cluster-perturb}: its numbers from hand-made workload folders, and its refusals. */
class ClusterPerturbCommandTest {
    private static final long T0 = 1_800_000_000L;   // epoch second of the first delivery

    @TempDir
    Path dir;

    @Test
    void shouldAverageHealthySendersAtHealthyMembersBeforeDuringAndAfter() throws Exception {
        Path run = dir.resolve("run");
        Files.createDirectories(run);
        // Three nodes, node 3 stopped from second 10 to 20. Each healthy member receives 100/s from each other
        // healthy sender, 30/s less from each during the perturbation; the stopped member's own messages are left
        // out everywhere, and it receives 50/s from each healthy sender during it.
        for (int node = 1; node <= 3; node++) {
            DeliveryTimeline t = new DeliveryTimeline();
            for (int s = 0; s < 30; s++) {
                boolean during = s >= 10 && s < 20;
                for (int origin = 1; origin <= 3; origin++) {
                    if (origin == node) {
                        continue;
                    }
                    int count = origin == 3 ? 7 : node == 3 ? (during ? 50 : 100) : during ? 70 : 100;
                    for (int i = 0; i < count; i++) {
                        t.add(origin, (T0 + s) * 1_000_000L + i);
                    }
                }
            }
            Files.writeString(run.resolve("node-" + node + ".json"),
                    "{\"node\": " + node + ", \"deliveriesPerSecond\": " + t.toJson() + "}");
        }
        Files.writeString(run.resolve("perturb.json"), "{\"protocol\": \"srm\", \"node\": 3, \"fraction\": 0.25, "
                + "\"startMs\": " + (T0 + 10) * 1000 + ", \"endMs\": " + (T0 + 20) * 1000 + "}");
        Files.writeString(run.resolve("summary.json"), "{\"verdict\": \"EXACTLY_ONCE\", \"totals\": "
                + "{\"delivered\": 10, \"expected\": 10, \"lostNotices\": 0}}");
        Path docs = dir.resolve("docs");
        Files.createDirectories(docs);

        StringWriter err = new StringWriter();
        assertEquals(0, BenchCli.run(err, "cluster-perturb", "--run", run.toString(), "--docs", docs.toString()),
                err.toString());

        String table = Files.readString(docs.resolve("figures/cluster-perturb.md"));
        // A healthy member hears one healthy sender: 100 before, 70 during, 100 after; the stopped member two.
        assertTrue(table.contains("| srm | 25 % | 100.0 | 70.0 / 70.0 | 100.0 | 100.0 / 200.0 | 10 / 10 | 0 | "
                + "EXACTLY_ONCE |"), table);
        List<String> csv = Files.readAllLines(docs.resolve("figures/cluster-perturb.csv"));
        assertEquals(1 + 30, csv.size());
        assertEquals("srm,0.25,-10,100.00,200.00", csv.get(1));
        assertEquals("srm,0.25,0,70.00,100.00", csv.get(11));
        assertTrue(Files.size(docs.resolve("figures/cluster-perturb.png")) > 0);
    }

    @Test
    void shouldRefuseAFolderThatIsNotAPerturbationRun() throws Exception {
        StringWriter err = new StringWriter();
        int code = BenchCli.run(err, "cluster-perturb", "--run", dir.toString(), "--docs", dir.toString());
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("no perturb.json"), err.toString());
    }
}
