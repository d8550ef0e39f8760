package io.ricochet.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One in-process run of the {@code ricochet} command, standard output and error captured (public for the other
 * modules' tests, through ricochet-core's test-jar).
 */
public record CliRun(int exitCode, String out, String err) {

    /** Runs {@code ricochet} with {@code args}, as its {@code main} does, and returns what it wrote and its code. */
    public static CliRun of(String... args) {
        CommandLine commandLine = new CommandLine(new RicochetMain());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    /** Runs {@code ricochet} with the space-separated arguments of {@code line}. */
    static CliRun line(String line) {
        return of(line.isBlank() ? new String[0] : line.strip().split("\\s+"));
    }
}
