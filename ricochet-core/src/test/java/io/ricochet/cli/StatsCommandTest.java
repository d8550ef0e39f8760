package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void shouldListTheApiCommandsInHelp() {
        CliRun run = CliRun.line("--help");

        for (String command : List.of("send", "listen", "stats")) {
            assertTrue(run.out().matches("(?s).*\n +" + command + " .*"), command);
        }
    }
}
