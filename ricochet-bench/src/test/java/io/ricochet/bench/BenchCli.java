package io.ricochet.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs a {@code bench} command line in this JVM, as the tests of its commands do. */
public final class BenchCli {
    private BenchCli() {
    }

    /** Runs {@code args}; standard error goes to {@code err}, standard output nowhere; returns the exit code. */
    public static int run(StringWriter err, String... args) {
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setErr(new PrintWriter(err));
        cli.setOut(new PrintWriter(new StringWriter()));
        return cli.execute(args);
    }
}
