package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code simulate --qsm-token-interval-ms} and {@code --qsm-partition-size}: they reach the engines and change the
 * token's pace and the rings' shape; misuse is refused.
 */
class QsmTokenIntervalOptionTest {
    private static final String QSM = "simulate --nodes 8 --degree 2 --group-size 4 --seconds 1 --quiet --seed 2"
            + " --loss uniform:0.02 --protocol qsm";

    @TempDir
    Path dir;

    private JsonNode run(String flags) throws IOException {
        Path file = dir.resolve("run" + System.nanoTime() + ".json");
        CliRun run = CliRun.line(QSM + " " + flags + " --json " + file);
        assertEquals(0, run.exitCode(), run.err());
        return new ObjectMapper().readTree(file.toFile());
    }

    @Test
    void aSlowerTokenIsPassedLessOftenAndStillRecoversEverything() throws IOException {
        JsonNode byDefault = run("");
        JsonNode fast = run("--qsm-token-interval-ms 0.5");
        JsonNode slow = run("--qsm-token-interval-ms 20");

        assertEquals(1.0, byDefault.get("parameters").get("tokenIntervalMs").asDouble());
        assertEquals(0.5, fast.get("parameters").get("tokenIntervalMs").asDouble());
        assertEquals(20.0, slow.get("parameters").get("tokenIntervalMs").asDouble());
        long fastTokens = fast.get("counters").get("QSM_TOKENS_SENT").asLong();
        long slowTokens = slow.get("counters").get("QSM_TOKENS_SENT").asLong();
        assertTrue(slowTokens < fastTokens, "20 ms holds pass the token less often: " + slowTokens + " vs "
                + fastTokens);
        for (JsonNode r : new JsonNode[] {byDefault, fast, slow}) {
            assertTrue(r.get("losses").asLong() > 0);
            assertEquals(0, r.get("unrecovered").asLong(), r.get("parameters").toString());
        }
    }

    @Test
    void aPartitionSizeBelowTheGroupSizeSplitsTheRingsAndOneAboveKeepsThemFlat() throws IOException {
        JsonNode split = run("--qsm-partition-size 2");
        JsonNode flat = run("--qsm-partition-size 64");
        assertEquals(2, split.get("parameters").get("partitionSize").asInt());
        assertEquals(5, run("").get("parameters").get("partitionSize").asInt());
        assertTrue(split.get("counters").get("QSM_RECORDS_ESCALATED").asLong() > 0,
                "partitions of 2 pass losses up to their leaders' ring");
        assertEquals(0, flat.get("counters").get("QSM_RECORDS_ESCALATED").asLong(), "one flat ring per group");
        assertEquals(0, split.get("unrecovered").asLong());
        assertEquals(0, flat.get("unrecovered").asLong());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "--qsm-token-interval-ms 5; --qsm-token-interval-ms: applies to --protocol qsm only, not ricochet",
        "--protocol qsm --qsm-token-interval-ms 0; --qsm-token-interval-ms 0: must be milliseconds in [0.001, 10000]",
        "--protocol qsm --qsm-token-interval-ms 10001; --qsm-token-interval-ms 10001: must be milliseconds in",
        "--protocol qsm --qsm-token-interval-ms NaN; --qsm-token-interval-ms NaN: must be milliseconds in",
        "--qsm-partition-size 5; --qsm-partition-size: applies to --protocol qsm only, not ricochet",
        "--protocol qsm --qsm-partition-size 1; --qsm-partition-size 1: must be in 2..65536 members",
    })
    void misuseIsRefusedWithOneLine(String flags, String message) {
        CliRun run = CliRun.line("simulate --nodes 8 --degree 1 --group-size 8 --seconds 1 --quiet " + flags);
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("ricochet simulate: " + message), run.err());
        assertTrue(!run.err().contains("Exception") && run.err().lines().count() <= 2, run.err());
    }
}
