package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad flags of send, listen and stats: one line, a pointer to --help, exit 2; no daemon needed. */
class ApiCommandErrorsTest {

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("stats --api nohost", "--api 'nohost': expected HOST:PORT, for example 127.0.0.1:7400"),
                Arguments.of("stats --api host:http", "--api 'host:http': port 'http' is not a number"),
                Arguments.of("stats --api host:0", "--api 'host:0': port 0 is not in 1..65535"),
                Arguments.of("send", "Missing required option: '--group=G'"),
                Arguments.of("send --group x", "--group"),
                Arguments.of("send --group 1 --count 5", "--count and --size generate messages: they need --rate"),
                Arguments.of("send --group 1 --rate 0", "--rate 0: must be a positive number"),
                Arguments.of("send --group 1 --rate 10 --count 0", "--count 0: must be at least 1"),
                Arguments.of("send --group 1 --rate 10 --size 0", "--size 0: must be at least 1"),
                Arguments.of("send --group 1 --rate 10 --input x", "cannot be combined with --rate"),
                Arguments.of("send --group 1 --input /no/such/file", "--input /no/such/file: no such readable file"),
                Arguments.of("listen", "Missing required option: '--group=G'"),
                Arguments.of("listen --group 1 --seconds 0", "--seconds 0: must be a positive number"),
                Arguments.of("listen --group 1 --seconds NaN", "--seconds NaN: must be a positive number"),
                Arguments.of("listen --group 1 --expect 0", "--expect 0: must be at least 1"),
                Arguments.of("listen --group 1 --bogus", "Unknown option: '--bogus'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void shouldRefuseBadInputOnOneLine(String arguments, String expected) {
        CliRun run = CliRun.line(arguments);

        String command = arguments.split(" ")[0];
        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals(2, lines.length, run.err());
        assertTrue(lines[0].startsWith("ricochet " + command + ": "), lines[0]);
        assertTrue(lines[0].contains(expected), lines[0]);
        assertEquals("Try 'ricochet " + command + " --help'.", lines[1]);
        assertEquals("", run.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void shouldSayOnOneLineThatNoDaemonListens(String command) throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }

        CliRun run = CliRun.line(command + " --api 127.0.0.1:" + port);

        assertEquals(1, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals(1, lines.length, run.err());
        assertTrue(lines[0].startsWith("ricochet " + command.split(" ")[0]
                + ": cannot connect to the Ricochet daemon at 127.0.0.1:" + port + ": "), lines[0]);
        assertFalse(run.err().contains("Exception"), run.err());
    }

    static Stream<String> commands() {
        return Stream.of("stats", "listen --group 1", "send --group 1 --rate 10");
    }

    @Test
    void shouldDescribeEveryFlagInHelp() {
        for (String help : new String[] {"send --help", "listen --help", "stats --help"}) {
            CliRun run = CliRun.line(help);

            assertEquals(0, run.exitCode());
            assertTrue(run.out().contains("--api=HOST:PORT"), run.out());
            assertTrue(run.out().contains("(default: 127.0.0.1:7400)"), run.out());
        }
    }
}
