package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --rate-of-fire-tuning} (issue 36): on, the run says so; off, it says nothing; misused, why. */
class RateOfFireTuningOptionTest {
    private static final String SMALL = "simulate --nodes 6 --degree 2 --group-size 4 --seconds 2 --quiet";

    @TempDir
    Path dir;

    @Test
    void shouldNameTheRangeInTheResultsWhenOnAndNothingWhenOff() throws IOException {
        Path on = dir.resolve("on.json");
        CliRun run = CliRun.line(SMALL + " --loss uniform:0.01 --rate-of-fire-tuning 3..8 --json " + on);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(Files.readString(on, StandardCharsets.UTF_8).contains("\"rateOfFireTuning\" : \"3.0..8.0\""));
        Path off = dir.resolve("off.json");
        run = CliRun.line(SMALL + " --loss uniform:0.01 --json " + off);
        assertEquals(0, run.exitCode(), run.err());
        assertFalse(Files.readString(off, StandardCharsets.UTF_8).contains("rateOfFireTuning"));
    }

    @Test
    void shouldRefuseAValueItCannotRead() {
        CliRun bad = CliRun.line(SMALL + " --rate-of-fire-tuning 8..3");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--rate-of-fire-tuning 8..3"), bad.err());
        CliRun word = CliRun.line(SMALL + " --rate-of-fire-tuning sometimes");
        assertEquals(2, word.exitCode());
        assertTrue(word.err().contains("must be off, on or MIN..MAX"), word.err());
    }
}
