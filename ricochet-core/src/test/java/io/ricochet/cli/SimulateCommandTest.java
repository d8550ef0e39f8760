package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.workload.WorkloadJson;
import io.ricochet.workload.WorkloadPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

    private static final String TINY = "simulate --nodes 8 --degree 4 --group-size 4 --seconds 1 --quiet";
    private static final List<String> FIELDS = List.of("parameters", "seed", "dataPackets", "losses",
            "lecRecovered", "nakRecovered", "lateArrivals", "unrecovered", "lecRecoveryPercent",
            "nakRecoveryPercent", "unrecoveredPercent", "recoveryLatencyMs", "lecRecoveryLatencyMs",
            "nakRecoveryLatencyMs", "discoveryLatencyMs", "overheadPercent", "controlPerNodePerSecond",
            "xorsPerDataPacket",
            "corruptDeliveries", "duplicateDeliveries", "verified", "simulatedEvents", "recoveryHistogram",
            "counters");
    private static final List<String> LATENCIES = List.of("recoveryLatencyMs", "lecRecoveryLatencyMs",
            "nakRecoveryLatencyMs", "discoveryLatencyMs");

    @TempDir
    Path dir;

    @Test
    void shouldWriteEveryResultFieldToJson() throws IOException {
        Path file = dir.resolve("run.json");
        CliRun run = CliRun.line(TINY + " --seed 3 --json " + file);

        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        List<String> names = new ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        assertEquals(FIELDS, names);
        for (String latency : LATENCIES) {
            for (String figure : List.of("count", "mean", "p50", "p99", "max")) {
                assertTrue(json.get(latency).get(figure).isNumber(), latency + "." + figure);
            }
        }
        assertEquals(3, json.get("seed").asLong());
        assertEquals(3, json.get("parameters").get("seed").asLong());
        assertEquals(8, json.get("parameters").get("nodes").asInt());
        assertTrue(json.get("verified").asBoolean());
        assertTrue(json.get("dataPackets").asLong() > 0);
        assertTrue(json.get("counters").get("REPAIRS_SENT").asLong() > 0);
        JsonNode histogram = json.get("recoveryHistogram");
        assertTrue(histogram.size() > 1);
        assertTrue(histogram.get(histogram.size() - 1).get("toMs").isNull());
        assertTrue(histogram.get(0).get("toMs").isNumber());
    }

    @Test
    void shouldPrintTheResultTable() {
        CliRun run = CliRun.line(TINY + " --seed 3");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("n=8  d=4  s=4  groups="), run.out());
        assertTrue(run.out().contains("seconds=1  seed=3\nprotocol=ricochet  "), run.out());
        assertTrue(run.out().contains("nak=on"), run.out());
        for (String row : List.of("data packets", "losses", "recovered by LEC", "recovered by NAK", "late arrivals",
                "unrecovered", "recovery", "LEC recovery", "NAK recovery", "discovery", "overhead", "control messages",
                "XORs per data packet", "repairs sent", "NAKs sent", "sessions sent", "wall clock")) {
            assertTrue(run.out().contains("\n" + row + " ") || run.out().contains("\n  " + row + " "), row);
        }
        assertTrue(run.out().contains("every payload verified, nothing delivered twice"), run.out());
        assertEquals("", run.err());
    }

    @Test
    void shouldRunWithoutNak() {
        CliRun run = CliRun.line(TINY + " --nak off --loss bursty:0.02:3 --loss-scope all");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("nak=off"), run.out());
        assertTrue(run.out().matches("(?s).*\nNAKs sent +0\n.*"), run.out());
    }

    @Test
    void shouldWriteIdenticalJsonForTheSameSeed() throws IOException {
        Path first = json(3, "first.json");
        Path second = json(3, "second.json");

        assertEquals(-1, Files.mismatch(first, second), "the files differ");
    }

    @Test
    void shouldWriteDifferentJsonForAnotherSeed() throws IOException {
        Path three = json(3, "three.json");
        Path four = json(4, "four.json");

        assertNotEquals(-1, Files.mismatch(three, four), "the files are identical");
        assertFalse(Files.readString(three).contains("wall"), "wall-clock time must stay out of the JSON");
    }

    @Test
    void shouldTakeTheGroupsFromAPlan() throws IOException {
        Path plan = dir.resolve("plan.json");
        WorkloadJson.write(plan, WorkloadPlan.generate(8, 8, 4, 1).toJson());
        Path file = dir.resolve("planned.json");

        CliRun run = CliRun.line(TINY + " --plan " + plan + " --json " + file);

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("protocol=ricochet  membership=given  "), run.out());
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals("given", json.get("parameters").get("membership").asText());
        assertEquals(8, json.get("parameters").get("groups").asInt());
        assertTrue(json.get("verified").asBoolean());
        Path again = dir.resolve("again.json");
        assertEquals(0, CliRun.line(TINY + " --plan " + plan + " --json " + again).exitCode());
        assertEquals(-1, Files.mismatch(file, again), "the same plan and seed give the same run");
    }

    @Test
    void shouldRefuseAPlanOfAnotherShape() throws IOException {
        Path plan = dir.resolve("plan.json");
        WorkloadJson.write(plan, WorkloadPlan.generate(8, 8, 4, 1).toJson());

        CliRun run = CliRun.line("simulate --nodes 8 --degree 4 --group-size 2 --seconds 1 --quiet --plan " + plan);

        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("ricochet simulate: --plan " + plan + ": has 8 groups, but n*d/s = 8*4/2"
                + " gives 16\n"), run.err());
    }

    /** The JSON file of a tiny run with {@code seed}. */
    private Path json(long seed, String name) {
        Path file = dir.resolve(name);
        CliRun run = CliRun.line(TINY + " --seed " + seed + " --json " + file);
        assertEquals(0, run.exitCode(), run.err());
        return file;
    }

    @Test
    void shouldSetSrmsSessionIntervalAndTurnSessionsOff() throws IOException {
        Path off = dir.resolve("off.json");
        Path on = dir.resolve("on.json");
        String srm = TINY + " --protocol srm --seed 2 --loss uniform:0.05";

        assertEquals(0, CliRun.line(srm + " --srm-session-interval-ms 0 --json " + off).exitCode());
        assertEquals(0, CliRun.line(srm + " --srm-session-interval-ms 250 --json " + on).exitCode());

        JsonNode quiet = new ObjectMapper().readTree(off.toFile());
        JsonNode chatty = new ObjectMapper().readTree(on.toFile());
        assertEquals(0.0, quiet.get("parameters").get("sessionIntervalMs").asDouble());
        assertEquals(250.0, chatty.get("parameters").get("sessionIntervalMs").asDouble());
        assertEquals(0, quiet.get("counters").get("SRM_SESSIONS_SENT").asLong());
        assertTrue(chatty.get("counters").get("SRM_SESSIONS_SENT").asLong() > 0);
    }

    @Test
    void shouldRunPlainIpMulticastLosingWhatTheNetworkDrops() throws IOException {
        Path file = dir.resolve("ipmc.json");
        CliRun run = CliRun.line(TINY + " --protocol ipmc --seed 3 --loss uniform:0.05 --json " + file);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode result = new ObjectMapper().readTree(file.toFile());
        assertTrue(result.get("losses").asLong() > 0);
        assertEquals(0, result.get("nakRecovered").asLong() + result.get("lecRecovered").asLong());
        assertEquals(0, result.get("counters").get("UNRECOVERED").asLong(), "ipmc reports no loss");
    }

    @Test
    void shouldRefuseAnSrmSessionIntervalForAnotherProtocolOrOutOfRange() {
        CliRun ricochet = CliRun.line(TINY + " --srm-session-interval-ms 100");
        CliRun negative = CliRun.line(TINY + " --protocol srm --srm-session-interval-ms -1");

        assertEquals(2, ricochet.exitCode());
        assertTrue(ricochet.err().startsWith("ricochet simulate: --srm-session-interval-ms: applies to --protocol srm"
                + " only, not ricochet\n"), ricochet.err());
        assertEquals(2, negative.exitCode());
        assertTrue(negative.err().startsWith("ricochet simulate: --srm-session-interval-ms -1: must be 0 or more"),
                negative.err());
    }
}
