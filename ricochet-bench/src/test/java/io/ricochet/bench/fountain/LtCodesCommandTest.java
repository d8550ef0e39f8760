package io.ricochet.bench.fountain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.BenchCli;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LtCodesCommandTest {
    @TempDir
    Path dir;

    private static int run(StringWriter err, String... args) {
        return BenchCli.run(err, args);
    }

    @Test
    void reportsBothDecodersInefficienciesAndBothCodesSpeeds() throws Exception {
        Path json = dir.resolve("lt.json");
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "lt-codes", "--k", "300", "--runs", "20", "--speed-mb", "1", "--repeat", "1",
                "--out", json.toString()), err.toString());
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        JsonNode rows = doc.get("inefficiency");
        assertEquals(2, rows.size());
        JsonNode inactivation = rows.get(0);
        JsonNode peeling = rows.get(1);
        assertEquals("inactivation", inactivation.get("decoder").asText());
        assertTrue(inactivation.get("mean").asDouble() >= 1.0, inactivation.toString());
        assertTrue(inactivation.get("mean").asDouble() <= peeling.get("mean").asDouble(), rows.toString());
        assertTrue(inactivation.get("max").asDouble() >= inactivation.get("p50").asDouble(), rows.toString());
        JsonNode speed = doc.get("speed");
        assertEquals(2, speed.size());
        for (JsonNode row : speed) {
            assertTrue(row.get("encodeMBps").asDouble() > 0 && row.get("decodeMBps").asDouble() > 0, row.toString());
        }
    }

    @Test
    void badOptionsAreRefusedWithTheRule() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "lt-codes", "--rs-data", "200"));
        assertTrue(err.toString().contains("--rs-data 200: must be in 1..128"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(err2, "lt-codes", "--delta", "1.5"));
        assertTrue(err2.toString().contains("0 < delta < 1"), err2.toString());
    }
}
