package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.ApiFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadCommandTest {
    private ApiFixture fixture;

    @TempDir
    Path dir;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldRunAWorkloadAndWriteWhatItSentAndReceived() throws Exception {
        Path out = dir.resolve("node-7.json");

        CliRun run = CliRun.line("workload --api " + fixture.address() + " --node 7 --groups 1,2 --rate 400"
                + " --seconds 0.25 --settle-seconds 0.1 --payload 100 --out " + out);

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("workload node 7: joined 2 group(s) [1, 2]"), run.out());
        assertTrue(run.out().contains("workload node 7: done, sent 100, wrote " + out), run.out());
        JsonNode json = new ObjectMapper().readTree(out.toFile());
        long sent = 0;
        for (JsonNode group : json.get("sent")) {
            sent += group.get("count").asLong();
            assertEquals(0, group.get("seqnos").get(0).get(0).asLong(), "the fake numbers each group from 0");
        }
        assertEquals(100, sent);
        assertEquals(0, json.get("selfDeliveries").asLong(), "the workload asks for no echo of its own sends");
        assertEquals(0, json.get("corrupt").get("count").asLong());
        assertEquals(7, json.get("statsAfter").get("node").asInt());
    }

    @Test
    void shouldSummarizeADirectoryOfResults() {
        CliRun.line("workload --api " + fixture.address() + " --groups 3 --rate 100 --seconds 0.05"
                + " --settle-seconds 0 --out " + dir.resolve("node-7.json"));
        Path summary = dir.resolve("summary.json");

        CliRun run = CliRun.line("workload --summarize " + dir + " --out " + summary);

        assertEquals(1, run.exitCode(), "one node alone owes nobody anything: " + run.out() + run.err());
        assertTrue(run.out().startsWith("verdict                NOTHING_CHECKED"), run.out());
        assertTrue(Files.exists(summary));
    }

    @Test
    void shouldPrintAPlanOneNodePerLine() {
        CliRun run = CliRun.line("workload --make-plan --nodes 4 --total-groups 2 --degree 1 --seed 5 --out "
                + dir.resolve("plan.json"));

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(4, run.out().lines().count());
        assertTrue(run.out().lines().allMatch(l -> l.matches("[1-4] [12]")), run.out());
        assertTrue(Files.exists(dir.resolve("plan.json")));
    }

    @Test
    void shouldWarnThatGroupsOfTwoRunWithoutLec() {
        CliRun pairs = CliRun.line("workload --make-plan --nodes 4 --total-groups 4 --degree 2");

        assertEquals(0, pairs.exitCode(), pairs.err());
        assertEquals("ricochet workload: warning: 4 of 4 groups [1, 2, 3, 4] have 2 members: LEC cannot help there "
                + "(a repair goes to the group's other receivers, and there are none), only NAKs recover their "
                + "losses; for groups of 3 or more raise --degree or lower --total-groups", pairs.err().strip());
        CliRun many = CliRun.line("workload --make-plan --nodes 24 --total-groups 12 --degree 1");
        assertTrue(many.err().contains("12 of 12 groups [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...] have 2 members"),
                many.err());
        CliRun triples = CliRun.line("workload --make-plan --nodes 6 --total-groups 4 --degree 2");
        assertEquals("", triples.err(), "groups of 3");
    }

    @Test
    void shouldRefuseFlagsOfAnotherMode() {
        CliRun run = CliRun.line("workload --make-plan --nodes 4 --total-groups 2 --degree 1 --rate 5");

        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("ricochet workload: --rate does not apply to --make-plan;"), run.err());
    }

    @Test
    void shouldRefuseBadRunFlagsOnOneLine() {
        assertEquals("ricochet workload: a workload run needs --groups and --out (or use --make-plan or "
                + "--summarize)", CliRun.line("workload --groups 1").err().lines().findFirst().orElseThrow());
        assertEquals("ricochet workload: --payload 10: must be at least 44 bytes (the checked header)",
                CliRun.line("workload --groups 1 --out x.json --payload 10").err().lines().findFirst().orElseThrow());
        assertEquals("ricochet workload: --groups [1, 1]: a group is listed twice",
                CliRun.line("workload --groups 1,1 --out x.json").err().lines().findFirst().orElseThrow());
    }

    @Test
    void shouldReportAWrongNodeAndAnUnreachableDaemonOnOneLine() {
        CliRun wrong = CliRun.line("workload --api " + fixture.address() + " --node 8 --groups 1 --out "
                + dir.resolve("x.json"));
        CliRun down = CliRun.line("workload --api 127.0.0.1:1 --groups 1 --out " + dir.resolve("x.json"));

        assertEquals(1, wrong.exitCode());
        assertEquals("ricochet workload: --node 8: the daemon at this address is node 7\n", wrong.err());
        assertEquals(1, down.exitCode());
        assertTrue(down.err().startsWith("ricochet workload: cannot connect to the Ricochet daemon at 127.0.0.1:1"),
                down.err());
        assertEquals(1, down.err().lines().count());
    }

    @Test
    void shouldReportAMissingResultDirectory() {
        CliRun run = CliRun.line("workload --summarize " + dir.resolve("nope"));

        assertEquals(1, run.exitCode());
        assertEquals("ricochet workload: " + dir.resolve("nope") + ": no such file or directory\n", run.err());
    }
}
