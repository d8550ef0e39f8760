package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ricochet top against API fixtures on loopback, and its refusals of bad flags. */
class TopCommandTest {
    @TempDir
    Path dir;
    private ApiFixture first;
    private ApiFixture second;

    @BeforeEach
    void setUp() {
        first = new ApiFixture();
        second = new ApiFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        first.close();
        second.close();
    }

    @Test
    void shouldPrintARowPerDaemonAtEachRefreshWithRatesFromTheSecond() {
        CliRun run = CliRun.line("top --plain --count 2 --interval 0.1 --api " + first.address() + ","
                + second.address());

        assertEquals(0, run.exitCode(), run.err());
        String[] screens = run.out().split("(?m)^(?=ricochet top )");
        assertEquals(2, screens.length, run.out());
        for (String screen : screens) {
            assertTrue(screen.contains("2 of 2 daemon(s) answering"), screen);
            assertEquals(2, screen.lines().filter(line -> line.startsWith("7 ")).count(), screen);
        }
        assertTrue(screens[0].lines().anyMatch(line -> line.matches("7 +- +- .*")), screens[0]);
        assertTrue(screens[1].lines().anyMatch(line -> line.matches("7 +- +0 .*")), screens[1]);
        assertFalse(run.out().contains("\u001b"), "no ANSI sequences when not on a terminal");
        assertEquals("", run.err());
    }

    @Test
    void shouldKeepAMissingDaemonsRowAndGoOn() {
        Path missing = dir.resolve("gone.sock");

        CliRun run = CliRun.line("top --plain --count 1 --api " + first.address() + " --api-unix " + missing);

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("1 of 2 daemon(s) answering"), run.out());
        assertTrue(run.out().contains("unix:" + missing + "  unreachable: cannot connect"), run.out());
    }

    @Test
    void shouldExitOneWhenNoDaemonAnswersAtTheStart() {
        CliRun run = CliRun.line("top --count 1 --api-unix " + dir.resolve("gone.sock"));

        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("ricochet top: no daemon answered: unix:" + dir.resolve("gone.sock")),
                run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertEquals("", run.out());
    }

    @Test
    void shouldRefuseABadIntervalOnOneLine() {
        for (String interval : new String[] {"0", "abc", "7200"}) {
            CliRun run = CliRun.line("top --count 1 --interval " + interval + " --api " + first.address());

            assertEquals(2, run.exitCode(), interval);
            assertEquals("ricochet top: --interval '" + interval + "': must be a number of seconds from 0.1 to "
                    + "3600, e.g. 2 or 0.5\nTry 'ricochet top --help'.\n", run.err());
        }
    }

    @Test
    void shouldRefuseAnEmptyOrBadAddress() {
        CliRun empty = CliRun.of("top", "--count", "1", "--api", first.address() + ",,");
        CliRun relative = CliRun.of("top", "--count", "1", "--api-unix", "relative.sock");

        assertEquals(2, empty.exitCode());
        assertTrue(empty.err().startsWith("ricochet top: --api: an empty address in the list; give HOST:PORT or "
                + "unix:PATH, separated by commas\n"), empty.err());
        assertEquals(2, relative.exitCode());
        assertTrue(relative.err().startsWith("ricochet top: --api-unix 'relative.sock': the Unix socket path "
                + "'relative.sock' must be absolute\n"), relative.err());
        assertFalse(empty.err().contains("Exception") || relative.err().contains("Exception"));
    }

    @Test
    void shouldBeListedInHelp() {
        assertTrue(CliRun.line("--help").out().matches("(?s).*\n +top .*"));
    }
}
