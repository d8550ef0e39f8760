package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code ricochet fountain send|recv} against the in-process API fixture, and their errors. */
class FountainCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldCarryAFileFromSendToRecvAndVerifyIt() throws Exception {
        byte[] content = new byte[30_000];
        new SplittableRandom(5).nextBytes(content);
        Path file = Files.write(dir.resolve("data.bin"), content);
        Path out = dir.resolve("copy.bin");
        try (ApiFixture fixture = new ApiFixture()) {
            String api = " --api " + fixture.address();
            CompletableFuture<CliRun> recv = CompletableFuture.supplyAsync(
                    () -> CliRun.line("fountain recv" + api + " --group 3 --seconds 30 --out " + out));
            // The receiver joins first; what it misses before that costs it nothing but symbols.
            CliRun send = null;
            while (!recv.isDone()) {
                send = CliRun.line("fountain send" + api + " --group 3 --rate 5000 --count 200 " + file);
                assertEquals(0, send.exitCode(), send.err());
            }
            CliRun received = recv.get(30, TimeUnit.SECONDS);
            assertEquals(0, received.exitCode(), received.err());
            assertArrayEquals(content, Files.readAllBytes(out));
            assertTrue(received.out().startsWith("received file "), received.out());
            assertTrue(received.out().contains("30000 bytes, SHA-256 "), received.out());
            assertTrue(send.err().contains("k = 32 symbols of 944 bytes"), send.err());
            assertTrue(send.out().startsWith("sent 200 symbols of file "), send.out());
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(2, left.count(), "no temporary file left beside the output");
            }
        }
    }

    @Test
    void shouldGiveUpAfterSecondsWithoutAFile() throws Exception {
        try (ApiFixture fixture = new ApiFixture()) {
            CliRun run = CliRun.line("fountain recv --api " + fixture.address() + " --group 3 --seconds 0.2 --out "
                    + dir.resolve("x"));
            assertEquals(1, run.exitCode());
            assertEquals("ricochet fountain recv: no file decoded in 0.2 s: no symbol of a file yet, 0 malformed "
                    + "message(s), 0 of other files\n", run.err());
            assertFalse(Files.exists(dir.resolve("x")));
        }
    }

    @Test
    void shouldRefuseASymbolLargerThanTheDaemonCarries() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[100]);
        try (ApiFixture fixture = new ApiFixture()) {
            CliRun run = CliRun.line("fountain send --api " + fixture.address() + " --group 3 --rate 10 --symbol 945 "
                    + file);
            assertEquals(2, run.exitCode());
            assertTrue(run.err().startsWith("ricochet fountain send: --symbol 945: the daemon's payload of 1024 bytes "
                    + "less the 80-byte header leaves at most 944 bytes a symbol\n"), run.err());
        }
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("fountain send --group 1 --rate 10 /no/such/file", "/no/such/file: no such readable file"),
                Arguments.of("fountain send --group 1 FILE", "Missing required option: '--rate=PER_SECOND'"),
                Arguments.of("fountain send --group 1 --rate 0 FILE", "--rate 0: must be a positive number"),
                Arguments.of("fountain send --group 1 --rate 5 --count 0 FILE", "--count 0: must be at least 1"),
                Arguments.of("fountain send --group 1 --rate 5 --symbol 0 FILE", "--symbol 0: must be in 1..65535"),
                Arguments.of("fountain send --group 1 --rate 5 --max-bytes 10 FILE", "more than --max-bytes 10"),
                Arguments.of("fountain send --group 1 --rate 5 --max-bytes 0 FILE", "--max-bytes 0: must be in"),
                Arguments.of("fountain send --group 1 --rate 5 EMPTY", "the file is empty"),
                Arguments.of("fountain recv --group 1", "Missing required option: '--out=FILE'"),
                Arguments.of("fountain recv --group 1 --out /no/such/dir/f", "its directory does not exist"),
                Arguments.of("fountain recv --group 1 --out DIR", "is a directory"),
                Arguments.of("fountain recv --group 1 --out OUT --file-id xyz", "--file-id 'xyz': must be 16 hex"),
                Arguments.of("fountain recv --group 1 --out OUT --seconds -1", "--seconds -1: must be a positive"),
                Arguments.of("fountain recv --group 1 --out OUT --max-bytes 2000000000", "must be in 1..1073741824"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void shouldRefuseBadInputOnOneLine(String arguments, String expected) throws IOException {
        Files.write(dir.resolve("file"), new byte[100]);
        Files.write(dir.resolve("empty"), new byte[0]);
        String line = arguments.replace("FILE", dir.resolve("file").toString())
                .replace("EMPTY", dir.resolve("empty").toString()).replace("DIR", dir.toString())
                .replace("OUT", dir.resolve("out").toString());
        CliRun run = CliRun.line(line);
        String command = "fountain " + arguments.split(" ")[1];
        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals(2, lines.length, run.err());
        assertTrue(lines[0].startsWith("ricochet " + command + ": "), lines[0]);
        assertTrue(lines[0].contains(expected), lines[0]);
        assertEquals("Try 'ricochet " + command + " --help'.", lines[1]);
    }

    @Test
    void shouldSayOnOneLineThatNoDaemonListens() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path file = Files.write(dir.resolve("f"), new byte[100]);
        for (String command : new String[] {"fountain send --group 1 --rate 10 " + file,
            "fountain recv --group 1 --out " + dir.resolve("o")}) {
            CliRun run = CliRun.line(command + " --api 127.0.0.1:" + port);
            assertEquals(1, run.exitCode(), run.err());
            assertEquals(1, run.err().split("\\R").length, run.err());
            assertTrue(run.err().startsWith("ricochet " + command.substring(0, 13).trim()
                    + ": cannot connect to the Ricochet daemon"), run.err());
        }
    }
}
