package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --fountain-backup}: on, its numbers appear in the JSON; misused, a one-line error says why. */
class FountainBackupOptionTest {
    private static final String SMALL = "simulate --nodes 4 --degree 1 --group-size 4 --seconds 2 --quiet";

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheBackupsNumbersWhenOn() throws IOException {
        Path file = dir.resolve("on.json");
        CliRun run = CliRun.line(SMALL + " --loss bursty:0.01:100 --seed 2 --fountain-backup on --json " + file);
        assertEquals(0, run.exitCode(), run.err());
        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(json.contains("\"fountainBackup\" : true"), json);
        assertTrue(json.contains("\"fountainRecovered\""), json);
        assertTrue(json.contains("\"FOUNTAIN_SYMBOLS_SENT\""), json);
    }

    @Test
    void shouldRefuseItWithoutNakOrForAnotherProtocol() {
        CliRun noNak = CliRun.line(SMALL + " --nak off --fountain-backup on");
        assertEquals(2, noNak.exitCode());
        assertTrue(noNak.err().contains("--fountain-backup on: needs the NAK layer (nak on)"), noNak.err());
        CliRun srm = CliRun.line(SMALL + " --protocol srm --fountain-backup on");
        assertEquals(2, srm.exitCode());
        assertTrue(srm.err().contains("--fountain-backup on: applies to --protocol ricochet only"), srm.err());
    }
}
