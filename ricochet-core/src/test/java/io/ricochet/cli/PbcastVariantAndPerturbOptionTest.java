package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code simulate --pbcast-variant}, {@code --pbcast-zone-size} and {@code --perturb}: their effect and misuse. */
class PbcastVariantAndPerturbOptionTest {
    private static final String SMALL = "simulate --nodes 8 --degree 1 --group-size 8 --seconds 1 --quiet";

    @TempDir
    Path dir;

    private JsonNode parameters(String flags) throws IOException {
        Path file = dir.resolve("run" + System.nanoTime() + ".json");
        CliRun run = CliRun.line(SMALL + " " + flags + " --json " + file);
        assertEquals(0, run.exitCode(), run.err());
        return new ObjectMapper().readTree(file.toFile()).get("parameters");
    }

    @ParameterizedTest(name = "--pbcast-variant {0}")
    @CsvSource({"basic,false,false,false", "ipmc,true,false,false", "grb,true,true,false", "local,true,true,true"})
    void eachVariantSetsItsSwitches(String variant, boolean ipmc, boolean grb, boolean local) throws IOException {
        JsonNode p = parameters("--protocol pbcast --pbcast-variant " + variant);
        assertEquals("pbcast", p.get("protocol").asText());
        assertEquals(ipmc, p.get("ipmc").asBoolean());
        assertEquals(grb, p.get("grb").asBoolean());
        assertEquals(local, p.get("local").asBoolean());
    }

    @Test
    void basicIsWhatPbcastAloneRuns() throws IOException {
        assertEquals(parameters("--protocol pbcast"), parameters("--protocol pbcast --pbcast-variant basic"));
    }

    @Test
    void zonesApplyToLocal() throws IOException {
        assertEquals("racks:4", parameters("--protocol pbcast --pbcast-variant local --pbcast-zone-size 4")
                .get("neighbourhood").asText());
        assertEquals("flat", parameters("--protocol pbcast --pbcast-variant local").get("neighbourhood").asText());
    }

    @Test
    void aPerturbationIsReportedInTheTableAndTheJson() throws IOException {
        CliRun run = CliRun.line(SMALL + " --perturb 2:0.3:500 --perturb-backlog 30");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Perturbation: node 2 asleep 30 % of every 500 ms;"), run.out());
        JsonNode p = parameters("--perturb 2:0.3:500 --perturb-backlog 30");
        assertEquals("2:0.3:500.0", p.get("perturb").asText());
        assertEquals(30, p.get("perturbBacklog").asInt());
        assertFalse(parameters("").has("perturb"));
    }

    @ParameterizedTest(name = "simulate {0}")
    @CsvSource(delimiter = ';', value = {
        "--pbcast-variant fast; --pbcast-variant 'fast': 'fast' is not one of basic, ipmc, grb, local",
        "--pbcast-variant grb; --pbcast-variant grb: applies to --protocol pbcast only, not ricochet",
        "--protocol ipmc --pbcast-variant ipmc; not ipmc (plain IP multicast has no variants)",
        "--protocol pbcast --pbcast-variant grb --pbcast-zone-size 2; applies to --pbcast-variant local only",
        "--protocol pbcast --pbcast-variant local --pbcast-zone-size 0; --pbcast-zone-size 0: must be in 1..--nodes",
        "--perturb 8:0.1; --perturb 8:0.1: NODE must be a node index in 0..7 (--nodes 8)",
        "--perturb 1:1.5; the fraction asleep must be in [0, 1)",
        "--perturb 1; expected NODE:FRACTION[:PERIOD_MS]",
        "--perturb 1:0.2 --perturb-backlog -1; --perturb-backlog -1: must be in 0..1000000"})
    void misuseIsRefusedOnOneLine(String flags, String expected) {
        CliRun run = CliRun.line(SMALL + " " + flags);
        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals(2, lines.length, run.err());
        assertTrue(lines[0].contains(expected), lines[0]);
        assertFalse(run.err().contains("Exception"), run.err());
    }
}
