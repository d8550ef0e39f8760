package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Command-line handling of ricochet-gms: help, and one clear line with exit status 2 for bad values. */
class GmsMainTest {

    @Test
    void shouldPrintTheProjectVersion() {
        Run run = run("-V");
        assertEquals(0, run.code);
        assertEquals("ricochet-gms " + System.getProperty("ricochet.expected.version"), run.out.strip());
    }

    @Test
    void shouldExplainTheFlagsInHelp() {
        Run run = run("--help");
        assertEquals(0, run.code);
        for (String flag : new String[] {"--partition", "--partitions", "--bind", "--port", "--raft-port",
            "--replicas", "--replica", "--storage", "--election-timeout-ms", "--snapshot-every", "--mcast-base",
            "--mcast-port", "--stats-interval", "--regions", "--region-mcast-base", "--min-region-size",
            "--max-connections", "--max-connections-per-address", "--tls-handshake-timeout-ms",
            "--session-requests-in-flight"}) {
            assertTrue(run.out.contains(flag), flag + " in\n" + run.out);
        }
        assertTrue(run.out.replaceAll("\\s+", " ").contains("PORT + the partition index"), run.out);
        assertTrue(run.out.replaceAll("\\s+", " ").contains("replicas: 1.7 A replicated GMS."), "footer: " + run.out);
    }

    @Test
    void shouldRejectBadValuesOnOneLineWithExitTwo() {
        assertUsageError("out of range 0..1", "--partition", "2", "--partitions", "2");
        assertUsageError("at least 1", "--partitions", "0");
        assertUsageError("not a multicast address", "--mcast-base", "10.0.0.0");
        assertUsageError("must end in .0.0", "--mcast-base", "239.255.1.0");
        assertUsageError("not an IPv4 address", "--mcast-base", "ff02::1");
        assertUsageError("not an IP address literal", "--bind", "localhost");
        assertUsageError("--port must be in 0..65535", "--port", "70000");
        assertUsageError("multicast port must be in 1..65535", "--mcast-port", "0");
        assertUsageError("'x'", "--partitions", "x");
        assertUsageError("Unknown option", "--colour");
        assertUsageError("go together", "--insecure", "--replica", "1");
        assertUsageError("expected ID=HOST:PORT:RAFTPORT", "--insecure", "--replica", "1", "--replicas",
                "1=127.0.0.1:7100");
        assertUsageError("not an IPv4 address others can reach", "--insecure", "--replica", "1", "--replicas",
                "1=0.0.0.0:7100:7190");
        assertUsageError("listed twice", "--insecure", "--replica", "1", "--replicas",
                "1=127.0.0.1:7100:7190,1=127.0.0.2:7100:7190");
        assertUsageError("not in the replica list", "--insecure", "--replica", "4", "--replicas",
                "1=127.0.0.1:7100:7190,2=127.0.0.2:7100:7190");
        assertUsageError("share the Raft address", "--insecure", "--replica", "1", "--replicas",
                "1=127.0.0.1:7100:7190,2=127.0.0.1:7110:7190");
        assertUsageError("drop --bind", "--insecure", "--replica", "1", "--replicas", "1=127.0.0.1:7100:7190",
                "--port", "7000");
        assertUsageError("election timeout", "--insecure", "--election-timeout-ms", "10");
        assertUsageError("give regions their own /16", "--insecure", "--regions", "--region-mcast-base",
                "239.255.0.0");
        assertUsageError("must end in .0.0", "--insecure", "--regions", "--region-mcast-base", "239.254.1.0");
        assertUsageError("--min-region-size must be in 1..65535", "--insecure", "--regions", "--min-region-size",
                "0");
        assertUsageError("--max-connections must be in 1..", "--insecure", "--max-connections", "0");
        assertUsageError("--max-connections-per-address must be in 1..--max-connections (8), got 9", "--insecure",
                "--max-connections", "8", "--max-connections-per-address", "9");
        assertUsageError("--tls-handshake-timeout-ms must be in 10..60000, got 5", "--insecure",
                "--tls-handshake-timeout-ms", "5");
        assertUsageError("--session-requests-in-flight must be in 1..65536, got 0", "--insecure",
                "--session-requests-in-flight", "0");
    }

    @Test
    void shouldTakeInsecureOnOrOffAsTheDaemonDoesAndTheBareFlagAsOn() {
        // Each line stops at a later check, so the first line of error shows how --insecure was read.
        assertUsageError("--tls-cert: TLS files and --insecure on were both given", "--insecure", "on",
                "--tls-cert", "x.pem");
        assertUsageError("--tls-cert: TLS files and --insecure on were both given", "--insecure",
                "--tls-cert", "x.pem");
        assertUsageError("--tls-cert: no certificate", "--insecure", "off");
        assertUsageError("--tls-cert: no certificate", "--partitions", "1");
        assertUsageError("at least 1", "--insecure", "--partitions", "0");

        Run yes = run("--insecure", "yes");
        assertEquals(2, yes.code, yes.err);
        assertEquals("ricochet-gms: --insecure 'yes': must be on or off", yes.err.lines().findFirst().orElse(""));
        assertEquals(2, yes.err.lines().count(), "one line, then the pointer to --help: " + yes.err);
    }

    @Test
    void shouldFailWithExitOneWhenThePortIsTaken(@TempDir Path storage) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run run = run("--port", String.valueOf(taken.getLocalPort()), "--bind", "127.0.0.1", "--insecure",
                    "--raft-port", "0", "--storage", storage.toString());
            assertEquals(1, run.code, run.err);
            assertTrue(run.err.startsWith("ricochet-gms: cannot listen on 127.0.0.1:" + taken.getLocalPort()),
                    run.err);
            assertFalse(run.err.contains("\tat "), "no stack trace: " + run.err);
        }
    }

    @Test
    void shouldSayOnOneLineWhenTheRaftPortIsTaken(@TempDir Path storage) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run run = run("--port", "0", "--bind", "127.0.0.1", "--insecure", "--raft-port",
                    String.valueOf(taken.getLocalPort()), "--storage", storage.toString());
            assertEquals(1, run.code, run.err);
            assertEquals(1, run.err.lines().count(), "one line: " + run.err);
            assertTrue(run.err.startsWith("ricochet-gms: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + " for Raft (--raft-port): "), run.err);
            assertFalse(run.err.contains("\tat "), "no stack trace: " + run.err);
        }
    }

    private static void assertUsageError(String expected, String... args) {
        Run run = run(args);
        assertEquals(2, run.code, String.join(" ", args) + ": " + run.err);
        String first = run.err.lines().findFirst().orElse("");
        assertTrue(first.startsWith("ricochet-gms: ") && first.contains(expected), run.err);
        assertFalse(run.err.contains("\tat "), "no stack trace: " + run.err);
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new GmsMain());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private record Run(int code, String out, String err) {
    }
}
