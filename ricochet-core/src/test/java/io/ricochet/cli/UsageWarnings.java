package io.ricochet.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * Renders a command line's usage and every subcommand's, and returns what picocli wrote to standard error meanwhile:
 * it reads each description as a format string and warns there (and prints the raw text) when one does not format,
 * as a bare "%" does.
 */
public final class UsageWarnings {
    private UsageWarnings() {
    }

    /** The standard error written while every usage message of {@code cli} and its subcommands was rendered. */
    public static String of(CommandLine cli) {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            render(cli);
        } finally {
            System.setErr(saved);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static void render(CommandLine cli) {
        if (!cli.getUsageMessage().contains("Usage: ")) {
            throw new AssertionError("no usage for " + cli.getCommandName());
        }
        cli.getSubcommands().values().forEach(UsageWarnings::render);
    }
}
