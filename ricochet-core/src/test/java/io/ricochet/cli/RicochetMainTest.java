package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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
        assertEquals("ricochet " + System.getProperty("ricochet.expected.version"), run.out().strip());
        assertEquals("ricochet " + System.getProperty("ricochet.expected.version"), CliRun.line("simulate -V").out()
                .strip(), "a subcommand prints the program's name and version");
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

    @Test
    void shouldReportAMistypedOptionBeforeTheRequiredOneItMisses() {
        CliRun run = CliRun.line("send --gropu 42");

        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals("ricochet send: Unknown options: '--gropu', '42' (did you mean --group?)", lines[0]);
        assertEquals("Try 'ricochet send --help'.", lines[1]);
    }

    @Test
    void everyCommandReportsAnUnknownOptionFirst() {
        List<List<String>> commands = new ArrayList<>();
        commands(new CommandLine(new RicochetMain()), List.of(), commands);
        for (List<String> command : commands) {
            List<String> args = new ArrayList<>(command);
            args.addAll(List.of("--bogus-option", "42"));
            CliRun run = CliRun.of(args.toArray(String[]::new));

            String name = String.join(" ", command);
            assertEquals(2, run.exitCode(), name + ": " + run.err());
            // A command with positional parameters takes the 42 as one.
            assertTrue(run.err().startsWith("ricochet " + name + ": Unknown option")
                    && run.err().contains("'--bogus-option'"), name + ": " + run.err());
        }
    }

    /** Every command below {@code line} (not help), as the words that name it, into {@code into}. */
    private static void commands(CommandLine line, List<String> words, List<List<String>> into) {
        line.getSubcommands().forEach((name, sub) -> {
            if (!(sub.getCommand() instanceof CommandLine.HelpCommand)
                    && !List.of(sub.getCommandSpec().aliases()).contains(name)) {
                List<String> named = new ArrayList<>(words);
                named.add(name);
                into.add(named);
                commands(sub, named, into);
            }
        });
    }
}
