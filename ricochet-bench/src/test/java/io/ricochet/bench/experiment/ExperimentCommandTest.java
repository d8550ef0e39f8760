package io.ricochet.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ExperimentCommandTest {
    @TempDir
    Path docs;

    private static String[] run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new String[] {Integer.toString(code), err.toString()};
    }

    @Test
    void anUnknownFigureIsAUsageErrorListingTheChoices() {
        String[] r = run("experiment", "--figure", "7", "--docs", docs.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("--figure 7: not a figure; use one or more of 8, 9, 10, 11, 12, 13, 14, 15, compare"),
                r[1]);
    }

    @Test
    void aMissingDocsFolderIsAUsageError() {
        String[] r = run("experiment", "--figure", "8", "--docs", docs.resolve("nowhere").toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].contains("no such folder"), r[1]);
    }

    @Test
    void badScaleValuesNameTheirFlag() {
        assertTrue(run("experiment", "--figure", "8", "--seeds", "0", "--docs", docs.toString())[1]
                .contains("--seeds 0: must be in 1..100"));
        assertTrue(run("experiment", "--figure", "8", "--seconds", "-1", "--docs", docs.toString())[1]
                .contains("--seconds -1.0: must be in (0, 3600]"));
    }

    @Test
    void helpExplainsTheCommand() {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setOut(new PrintWriter(out));
        assertEquals(0, cli.execute("experiment", "--help"));
        assertTrue(out.toString().contains("--quick"));
        assertTrue(out.toString().contains("Figures 8-15"));
    }

    @Test
    void theReportQuotesTheCommandAsTyped() throws Exception {
        java.nio.file.Files.writeString(docs.resolve("results.md"), "# Results\n");
        String[] r = run("experiment", "--figure", "8", "--seconds", "0.2", "--seeds", "1", "--threads", "1",
                "--docs", docs.toString());
        assertEquals("0", r[0], r[1]);
        String md = java.nio.file.Files.readString(docs.resolve("results.md"));
        assertTrue(md.contains("- Run: `scripts/bench experiment --figure 8 --seconds 0.2 --seeds 1 --threads 1 --docs "
                + docs + "` on "), md);
    }
}
