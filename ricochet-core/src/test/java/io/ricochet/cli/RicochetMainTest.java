package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RicochetMainTest {

    private static final List<String> SIMULATE_FLAGS = List.of("--nodes", "--degree", "--group-size", "--r", "--c",
            "--stagger", "--loss", "--loss-scope", "--seconds", "--drain-seconds", "--seed", "--nak",
            "--rate-per-node", "--payload", "--latency-us", "--nak-timeout-ms", "--nak-retry-ms",
            "--nak-max-attempts", "--session-delay-ms", "--data-cache", "--repair-buffer", "--json", "--quiet",
            "--help", "--version");

    @Test
    void shouldPrintTheVersion() {
        CliRun run = CliRun.line("--version");

        assertEquals(0, run.exitCode());
        assertEquals("ricochet 0.1.0", run.out().strip());
    }

    @Test
    void shouldDescribeRicochetAndListCommands() {
        CliRun run = CliRun.line("--help");

        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("Lateral Error Correction"), run.out());
        assertTrue(run.out().contains("simulate"), run.out());
    }

    @Test
    void shouldListEveryFlagAndDefaultInSimulateHelp() {
        CliRun run = CliRun.line("simulate --help");

        assertEquals(0, run.exitCode());
        for (String flag : SIMULATE_FLAGS) {
            assertTrue(run.out().contains(flag), flag);
        }
        assertTrue(run.out().contains("(default: uniform:0.01)"), run.out());
        assertTrue(run.out().contains("(default: 64)"), run.out());
        assertEquals("", run.err());
    }

    @Test
    void shouldRefuseAMissingCommand() {
        CliRun run = CliRun.line("");

        assertEquals(2, run.exitCode());
        String[] lines = run.err().split("\\R");
        assertEquals(2, lines.length, run.err());
        assertTrue(lines[0].startsWith("ricochet: no command given; use one of: help, simulate"), lines[0]);
        assertEquals("Try 'ricochet --help'.", lines[1]);
    }
}
