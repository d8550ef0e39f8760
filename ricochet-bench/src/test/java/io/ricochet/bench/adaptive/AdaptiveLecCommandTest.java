package io.ricochet.bench.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench adaptive-lec} on a small workload: every protocol, every phase, the files written. */
class AdaptiveLecCommandTest {
    @TempDir
    Path out;

    @Test
    void shouldWriteOneRowPerPhaseAndProtocolAndTheFigures() throws Exception {
        int exit = new CommandLine(new AdaptiveLecCommand()).execute("--nodes", "8", "--degree", "2", "--group-size",
                "4", "--phase-seconds", "2", "--out", out.toString());
        assertEquals(0, exit);
        List<String> rows = Files.readAllLines(out.resolve("adaptive-lec.csv"), StandardCharsets.UTF_8);
        assertEquals(1 + AdaptiveLecCommand.PHASES.length * Variant.values().length, rows.size(), rows.toString());
        assertTrue(rows.get(0).startsWith("protocol,phase,loss,losses,lec_recovered"), rows.get(0));
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("adaptive,3,uniform:0.05,")), rows.toString());
        List<String> seconds = Files.readAllLines(out.resolve("adaptive-lec-seconds.csv"), StandardCharsets.UTF_8);
        assertEquals(1 + 8 * Variant.values().length, seconds.size());
        assertTrue(Files.size(out.resolve("adaptive-lec.png")) > 0);
        assertTrue(Files.readString(out.resolve("adaptive-lec.md")).contains("| 4 | uniform:0.001 | SRM-style NAK |"));
    }

    @Test
    void shouldGiveTheSchedulesLossSpec() {
        assertEquals("phases:15@uniform:0.001;15@bursty:0.01:50;15@uniform:0.05;15@uniform:0.001",
                AdaptiveLecCommand.schedule(15));
    }
}
