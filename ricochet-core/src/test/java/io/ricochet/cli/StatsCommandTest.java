package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.ApiFixture;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StatsCommandTest {
    private ApiFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldPrintTheDaemonsStatsAsAnIndentedTable() {
        CliRun run = CliRun.line("stats --api " + fixture.address());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("(?s)node +7\n.*"), run.out());
        assertTrue(run.out().matches("(?s).*\ncounters\n  DATA_SENT +0\n.*"), run.out());
        assertTrue(run.out().matches("(?s).*\nbuffers\n  queued +0\n.*"), run.out());
        assertTrue(run.out().matches("(?s).*\napi\n  CONNECTIONS_ACCEPTED +1\n  CONNECTIONS_OPEN +1\n.*"), run.out());
        assertEquals("", run.err());
    }

    @Test
    void shouldPrintJsonWithJson() throws Exception {
        CliRun run = CliRun.line("stats --json --api " + fixture.address());

        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals(7, json.get("node").asInt());
        assertEquals(1, json.get("api").get("CONNECTIONS_OPEN").asInt());
    }

    @Test
    void shouldAlignValuesOfNestedMapsInOneColumn() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("rate", 2.50);
        stats.put("buffers", Map.of("unusableRepairsLongName", 3));
        stats.put("groups", List.of(1, 2));

        String table = StatsCommand.table(stats);

        assertEquals("rate                       2.5\n"
                + "buffers\n"
                + "  unusableRepairsLongName  3\n"
                + "groups                     [1, 2]\n", table);
    }

    @Test
    void shouldLeaveTheEncodedLatencyHistogramsToJson() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("daemon", Map.of("latencyHistograms", Map.of("lecRecoveryLatencyMsWithALongKey", "HISTogAAAA==")));

        assertEquals("daemon\n", StatsCommand.table(stats));
    }

    @Test
    void shouldLeaveOutZeroCountersUnlessAll() {
        CliRun shown = CliRun.line("stats --api " + fixture.address());
        CliRun all = CliRun.line("stats --all --api " + fixture.address());

        assertTrue(shown.out().matches("(?s).*\n\\(\\d+ counters at 0 not shown; --all shows them\\)\n"),
                shown.out());
        assertTrue(all.out().contains("\n  MALFORMED_FRAMES "), all.out());
        assertFalse(shown.out().contains("MALFORMED_FRAMES"), shown.out());
        assertFalse(all.out().contains("not shown"), all.out());
    }

    @Test
    void shouldWatchWithTotalsFirstThenRatesPerSecond() {
        CliRun run = CliRun.line("stats --watch --count 2 --interval 0.1 --api " + fixture.address());

        assertEquals(0, run.exitCode(), run.err());
        String[] blocks = run.out().split("(?m)^(?=--- )");
        assertEquals(2, blocks.length, run.out());
        assertTrue(blocks[0].matches("(?s)--- \\d\\d:\\d\\d:\\d\\d node 7 \\(fake\\): totals since the daemon "
                + "started ---\ncounters\n  DATA_SENT +0\n.*"), blocks[0]);
        assertTrue(blocks[1].matches("(?s)--- \\S+ node 7 \\(fake\\): per second over the last [0-9.]+ s ---\n"
                + "counters/s\n  DATA_SENT +0\n.*\ngauges\n  CONNECTIONS_OPEN +1\n.*"), blocks[1]);
        assertEquals("", run.err());
    }

    @Test
    void shouldSayOnOneLineThatTheWatchedDaemonIsNotThere() throws Exception {
        String address = fixture.address();
        fixture.close();

        CliRun run = CliRun.line("stats --watch --count 1 --api " + address);

        assertEquals(1, run.exitCode());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("ricochet stats: cannot connect to the Ricochet daemon at " + address),
                run.err());
        fixture = new ApiFixture();
    }

    @Test
    void shouldRefuseWatchFlagsWithoutWatchAndABadInterval() {
        CliRun alone = CliRun.line("stats --interval 2 --api " + fixture.address());
        CliRun bad = CliRun.line("stats --watch --count 1 --interval -1 --api " + fixture.address());
        CliRun json = CliRun.line("stats --watch --count 1 --json --api " + fixture.address());

        assertEquals(2, alone.exitCode());
        assertEquals("ricochet stats: --interval only goes with --watch\nTry 'ricochet stats --help'.\n", alone.err());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().startsWith("ricochet stats: --interval '-1': must be a number of seconds"), bad.err());
        assertEquals(2, json.exitCode());
        assertTrue(json.err().startsWith("ricochet stats: --json and --watch do not go together"), json.err());
    }

    @Test
    void shouldListTheApiCommandsInHelp() {
        CliRun run = CliRun.line("--help");

        for (String command : List.of("send", "listen", "stats")) {
            assertTrue(run.out().matches("(?s).*\n +" + command + " .*"), command);
        }
    }
}
