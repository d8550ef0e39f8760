package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The {@code ricochet-fd} command line, run in process: bad input is refused on one line naming the flag, with exit
 * code 2 and no stack trace; {@code --help} documents every flag.
 */
class FdMainTest {
    private static final String LOCAL = "127.0.0.1:";

    /** One in-process run, standard output and error captured. */
    private record Run(int exitCode, String out, String err) {
        static Run of(String line) {
            CommandLine commandLine = FdMain.commandLine();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(err, true));
            int exitCode = commandLine.execute(line.isBlank() ? new String[0] : line.strip().split("\\s+"));
            return new Run(exitCode, out.toString(), err.toString());
        }
    }

    @Test
    void shouldPrintTheProjectVersion() {
        Run run = Run.of("-V");
        assertEquals(0, run.exitCode());
        assertEquals("ricochet-fd " + System.getProperty("ricochet.expected.version"), run.out().strip());
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("--id a --bogus", "Unknown option: '--bogus'"),
                Arguments.of("--members 1@" + LOCAL + "7100", "Missing required option: '--id=NAME'"),
                Arguments.of("--id a/b", "--id 'a/b': detector id 'a/b' must be 1 to 64 characters"),
                Arguments.of("--id a --interval-ms x", "--interval-ms 'x'"),
                Arguments.of("--id a --interval-ms 0", "--interval-ms 0: must be in 1..60000"),
                Arguments.of("--id a --interval-ms 60001", "--interval-ms 60001: must be in 1..60000"),
                Arguments.of("--id a --miss 0", "--miss 0: must be in 1..1000"),
                Arguments.of("--id a --miss -3", "--miss -3: must be in 1..1000"),
                Arguments.of("--id a --phi-threshold 0.5", "--phi-threshold 0.5: must be a number in 1..100"),
                Arguments.of("--id a --phi-threshold 101", "--phi-threshold 101.0: must be a number in 1..100"),
                Arguments.of("--id a --phi-threshold NaN", "--phi-threshold NaN: must be a number in 1..100"),
                Arguments.of("--id a --phi-threshold Infinity", "--phi-threshold Infinity: must be a number in"),
                Arguments.of("--id a --phi-threshold x", "--phi-threshold 'x'"),
                Arguments.of("--id a --acceptable-pause-ms -1", "--acceptable-pause-ms -1: must be in 0..600000"),
                Arguments.of("--id a --acceptable-pause-ms 600001",
                        "--acceptable-pause-ms 600001: must be in 0..600000"),
                Arguments.of("--id a --acceptable-pause-ms 1s", "--acceptable-pause-ms '1s'"),
                Arguments.of("--id a --min-std-dev-ms 0", "--min-std-dev-ms 0: must be in 1..60000"),
                Arguments.of("--id a --min-std-dev-ms 60001", "--min-std-dev-ms 60001: must be in 1..60000"),
                Arguments.of("--id a --bind 127.0.0.1", "--bind '127.0.0.1': expected host:port"),
                Arguments.of("--id a --bind " + LOCAL + "70000", "--bind '127.0.0.1:70000': port '70000' must be"),
                Arguments.of("--id a --bind ::1:7200", "an IPv6 host needs brackets"),
                Arguments.of("--id a --members 1@" + LOCAL + "0", "--members '1@127.0.0.1:0': port '0' must be"),
                Arguments.of("--id a --members x@" + LOCAL + "7100",
                        "--members 'x@127.0.0.1:7100': node id 'x' is not a 32-bit integer"),
                Arguments.of("--id a --members " + LOCAL + "7100",
                        "--members '127.0.0.1:7100': expected nodeId@host:port"),
                Arguments.of("--id a --members 1@" + LOCAL + "7101,1@" + LOCAL + "7102",
                        "--members: node id 1 is listed twice"),
                Arguments.of("--id a --members 1@" + LOCAL + "7101,2@" + LOCAL + "7101",
                        "--members: node 2 (127.0.0.1:7101) has the address of node 1"),
                Arguments.of("--id a --watch-detectors b", "--watch-detectors 'b': expected id@host:port"),
                Arguments.of("--id a --watch-detectors b@" + LOCAL + "7201 --chain-next b@" + LOCAL + "7202",
                        "--chain-next: detector b is also in --watch-detectors"),
                Arguments.of("--id a --chain-next a@" + LOCAL + "7201",
                        "--chain-next: 'a' is this detector's own --id"),
                // "b".hashCode() == 98: detector b would answer with the wire id of node 98.
                Arguments.of("--id a --members 98@" + LOCAL + "7100 --watch-detectors b@" + LOCAL + "7201",
                        "--watch-detectors: detector b (127.0.0.1:7201) answers with wire id 98, as node 98"),
                Arguments.of("--id a --gms nowhere",
                        "--gms 'nowhere': replica 'nowhere' of partition 0: expected host:port; write each partition "
                                + "as its replicas host:port/host:port/... and separate the partitions with ','"),
                Arguments.of("--id a --gms " + LOCAL + "7300," + LOCAL + "7300",
                        "--gms '127.0.0.1:7300,127.0.0.1:7300': 127.0.0.1:7300 is listed twice (in partitions 0 and "
                                + "1): every replica of every partition has an address of its own"),
                Arguments.of("--id a --gms " + LOCAL + "7300/" + LOCAL + "7310/" + LOCAL + "7300",
                        "127.0.0.1:7300 is listed twice (in partition 0)"),
                Arguments.of("--id a --gms " + LOCAL + "7300//" + LOCAL + "7310",
                        "partition 0 ('127.0.0.1:7300//127.0.0.1:7310') has an empty replica (two '/' in a row"),
                Arguments.of("--id a --gms " + LOCAL + "7300,," + LOCAL + "7310",
                        "partition 1 is empty (two ',' in a row, or one at an end): write each partition"),
                Arguments.of("--id a --gms " + LOCAL + "7300/" + LOCAL + "x",
                        "replica '127.0.0.1:x' of partition 0: port 'x' must be a number in 1..65535"),
                Arguments.of("--id a --gms " + LOCAL + "7300 --gms " + LOCAL + "7301", "--gms"),
                Arguments.of("--id a extra", "Unmatched argument at index 2: 'extra'"),
                Arguments.of("--id a --rack 0", "--rack 0: must be in 1..65535 (--standby for a detector with no "
                        + "rack of its own)"),
                Arguments.of("--id a --rack 65536 --gms " + LOCAL + "7300", "--rack 65536: must be in 1..65535"),
                Arguments.of("--id a --rack -1", "--rack -1: must be in 1..65535"),
                Arguments.of("--id a --rack x", "--rack 'x'"),
                Arguments.of("--id a --rack 1 --standby --gms " + LOCAL + "7300",
                        "--rack 1 and --standby: choose one (a rack detector takes over racks too; a standby has no "
                                + "rack of its own)"),
                Arguments.of("--id a --rack 2", "--rack 2 needs --gms: the GMS lists the daemons to watch (or give "
                        + "them with --members instead)"),
                Arguments.of("--id a --standby --members 1@" + LOCAL + "7100", "--standby needs --gms"),
                Arguments.of("--id a --rack 1 --rack 2 --gms " + LOCAL + "7300", "--rack"),
                Arguments.of("--id a --insecure yes", "--insecure 'yes': must be on or off"),
                Arguments.of("--id a --insecure On", "--insecure 'On': must be on or off"),
                Arguments.of("--id a --insecure off", "no key file"),
                // --insecure on and the bare --insecure: past the key check, stopped by a later one.
                Arguments.of("--id a --insecure on --miss 0", "--miss 0: must be in 1..1000"),
                Arguments.of("--id a --insecure --miss 0", "--miss 0: must be in 1..1000"),
                Arguments.of("--id a --insecure on --gms " + LOCAL + "7300 --tls-cert a.pem",
                        "--tls-cert: TLS files and --insecure on were both given: choose one"),
                Arguments.of("--id a --insecure --gms " + LOCAL + "7300 --tls-cert a.pem",
                        "--tls-cert: TLS files and --insecure on were both given: choose one"));
    }

    @ParameterizedTest(name = "ricochet-fd {0}")
    @MethodSource("badInputs")
    void shouldRefuseBadInputOnOneLineWithExitCodeTwo(String arguments, String expected) {
        Run run = Run.of(arguments);

        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals(2, lines.length, run.err());
        assertTrue(lines[0].startsWith("ricochet-fd: "), lines[0]);
        assertTrue(lines[0].contains(expected), lines[0]);
        assertEquals("Try 'ricochet-fd --help'.", lines[1]);
        assertFalse(run.err().contains("Exception"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
        assertEquals("", run.out());
    }

    @Test
    void shouldExplainEveryFlagAndDefaultInHelp() {
        Run run = Run.of("--help");

        assertEquals(0, run.exitCode());
        for (String flag : new String[] {"--id", "--bind", "--members", "--interval-ms", "--miss", "--gms",
            "--watch-detectors", "--chain-next", "--phi-threshold", "--acceptable-pause-ms", "--min-std-dev-ms",
            "--rack", "--standby", "--help", "--version"}) {
            assertTrue(run.out().contains(flag), flag + " missing from:\n" + run.out());
        }
        String unwrapped = run.out().replaceAll("\\s+", "");
        assertTrue(unwrapped.contains("(default:127.0.0.1:7200)"), run.out());
        assertTrue(unwrapped.contains("eachisitsreplicasseparatedby'/'"), "--gms explains replicas: " + run.out());
        assertTrue(unwrapped.contains("1..60000(default:100)"), run.out());
        assertTrue(unwrapped.contains("1..1000(default:5)"), run.out());
        assertTrue(unwrapped.contains("1..100(default:8)"), run.out());
        assertTrue(unwrapped.contains("0..600000(default:2000)"), run.out());
        assertTrue(unwrapped.contains("1..60000(default:100)"), run.out());
        assertTrue(unwrapped.contains("ThisisthedetectorofrackR,1..65535"), "--rack: " + run.out());
        assertTrue(unwrapped.contains("thosearealwayswatched"), "--members beside a list: " + run.out());
        assertTrue(unwrapped.contains("design:docs/design/failure-detection.md."), "footer: " + run.out());
        assertEquals("", run.err());
    }

    @Test
    void shouldReportABindAddressInUseOnOneLineWithExitCodeOne() throws Exception {
        try (DatagramSocket taken = FdServerTest.loopbackSocket()) {
            int port = ((InetSocketAddress) taken.getLocalSocketAddress()).getPort();

            Run run = Run.of("--id a --insecure --bind " + LOCAL + port);

            assertEquals(1, run.exitCode(), run.err());
            String[] lines = run.err().split("\\R");
            assertEquals(1, lines.length, run.err());
            assertTrue(lines[0].startsWith("ricochet-fd: --bind 127.0.0.1:" + port + ": "), lines[0]);
            assertFalse(run.err().contains("Exception"), run.err());
        }
    }

    @Test
    void shouldRefuseToRunWithoutAKeyUnlessToldToRunInsecure() throws Exception {
        Run noKey = Run.of("--id a");
        assertEquals(2, noKey.exitCode());
        assertTrue(noKey.err().contains("no key file") && noKey.err().contains("ricochet keygen"), noKey.err());

        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("fd-keys");
        java.nio.file.Path key = dir.resolve("cluster.key");
        io.ricochet.auth.ClusterKeys.generate(new java.security.SecureRandom(), 1).write(key);
        java.nio.file.Files.setPosixFilePermissions(key,
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Run open = Run.of("--id a --key-file " + key);
        assertEquals(2, open.exitCode());
        assertTrue(open.err().contains("chmod 600"), open.err());
        assertFalse(open.err().contains("Exception"), open.err());

        Run both = Run.of("--id a --insecure --key-file " + key);
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("choose one"), both.err());
    }

    @Test
    void shouldRefuseGmsLinksWithoutTlsFilesUnlessInsecure() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("fd-keys");
        java.nio.file.Path key = dir.resolve("cluster.key");
        io.ricochet.auth.ClusterKeys.generate(new java.security.SecureRandom(), 1).write(key);
        Run noCert = Run.of("--id a --key-file " + key + " --gms 127.0.0.1:7100");
        assertEquals(2, noCert.exitCode());
        assertTrue(noCert.err().startsWith("ricochet-fd: --tls-cert: no certificate"), noCert.err());
        assertTrue(noCert.err().contains("--insecure"), noCert.err());
        Run certOnly = Run.of("--id a --key-file " + key + " --gms 127.0.0.1:7100 --tls-cert " + dir.resolve("a.pem"));
        assertEquals(2, certOnly.exitCode());
        assertTrue(certOnly.err().startsWith("ricochet-fd: --tls-key: not given"), certOnly.err());
        Run both = Run.of("--id a --insecure --gms 127.0.0.1:7100 --tls-cert " + dir.resolve("a.pem"));
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("choose one"), both.err());
        assertFalse(both.err().contains("Exception"), both.err());
    }
}
