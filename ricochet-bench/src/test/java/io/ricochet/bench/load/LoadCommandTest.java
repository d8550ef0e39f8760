package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench load} refuses to run unauthenticated unless told to, with a message that says how to fix it. */
class LoadCommandTest {
    @TempDir
    Path dir;

    /** Runs the command with {@code args}; returns its exit code and what it wrote to stderr. */
    private static String[] run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new LoadCommand()).setErr(new PrintWriter(err));
        int status = cli.execute(args);
        return new String[] {Integer.toString(status), err.toString()};
    }

    private static void assertRefused(String[] result, String message) {
        assertEquals("2", result[0], result[1]);
        assertTrue(result[1].startsWith(message), "stderr: " + result[1]);
    }

    @Test
    void withoutAKeyFileOrInsecureItRefusesToRun() {
        assertRefused(run("--node-id", "5", "--groups", "100"), "no --key-file: give the cluster's key file, the "
                + "daemons' key-file (make one with 'ricochet keygen --out FILE'), or run unauthenticated on purpose "
                + "with --insecure");
    }

    @Test
    void aKeyFileAndInsecureAreOneChoice() throws Exception {
        Path key = Files.writeString(dir.resolve("cluster.key"), "x");
        assertRefused(run("--node-id", "5", "--groups", "100", "--key-file", key.toString(), "--insecure"),
                "--key-file and --insecure were both given: choose one");
    }

    @Test
    void aMissingKeyFileIsNamed() {
        Path missing = dir.resolve("missing.key");
        String[] result = run("--node-id", "5", "--groups", "100", "--key-file", missing.toString());
        assertRefused(result, "--key-file: ");
        assertTrue(result[1].contains(missing.toString()), result[1]);
    }

    @Test
    void insecureLinksTakeNoCertificate() throws Exception {
        Path cert = Files.writeString(dir.resolve("node-5.pem"), "x");
        String[] result = run("--node-id", "5", "--groups", "100", "--insecure", "--tls-cert", cert.toString());
        assertRefused(result, "--tls-cert");
        assertTrue(result[1].contains("--insecure"), result[1]);
    }
}
