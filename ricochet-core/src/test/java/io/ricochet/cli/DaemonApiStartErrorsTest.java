package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ricochet daemon} whose local API cannot listen where its settings say: one line naming the keys to fix and
 * the reason, a pointer to --help, exit 2, no stack trace, and nothing of the daemon left running.
 */
class DaemonApiStartErrorsTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameTheSocketKeyWhenThePathIsARegularFile() throws Exception {
        Path file = Files.writeString(dir.resolve("api.sock"), "precious");

        CliRun run = daemon("--api-unix-socket " + file);

        assertOneLineError(run, "ricochet daemon: api-unix-socket = " + file
                + ": the path exists and is not a socket; refusing to replace it");
        assertEquals("precious", Files.readString(file));
    }

    @Test
    void shouldNameTheSocketKeyWhenTheDirectoryIsMissing() throws Exception {
        Path missing = dir.resolve("no-such-dir").resolve("api.sock");

        CliRun run = daemon("--api-unix-socket " + missing);

        assertOneLineError(run, "ricochet daemon: api-unix-socket = " + missing + ": directory " + missing.getParent()
                + " does not exist");
    }

    @Test
    void shouldNameThePortKeysWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliRun run = daemon("--api-port " + taken.getLocalPort());

            assertOneLineError(run, "ricochet daemon: api-bind = 127.0.0.1, api-port = " + taken.getLocalPort()
                    + ": ");
        }
    }

    @Test
    void shouldFailOnATakenPortBeforeItRegistersWithTheGms() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket gms = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CliRun run = CliRun.line("daemon --node-id 1 --insecure on --stats-interval 0 --unicast-port "
                    + freeUdpPort() + " --heartbeat-port " + freeUdpPort() + " --gms 127.0.0.1:" + gms.getLocalPort()
                    + " --api-port " + taken.getLocalPort());

            assertOneLineError(run, "ricochet daemon: api-bind = 127.0.0.1, api-port = " + taken.getLocalPort()
                    + ": ");
            // A session with the GMS would be queued here even once closed: none was opened, so no REGISTER.
            gms.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, gms::accept, "the daemon connected to the GMS");
        }
    }

    @Test
    void shouldRefuseToStartWithNeitherTcpNorAUnixSocket() throws Exception {
        CliRun run = daemon("--api-tcp off");

        assertOneLineError(run, "ricochet daemon: api-tcp = off: the API would listen nowhere: TCP is off");
        assertTrue(run.err().contains("api-unix-socket"), run.err());
    }

    /** {@code ricochet daemon} on free loopback ports, insecure, a GMS that is not there, plus {@code extra}. */
    private static CliRun daemon(String extra) throws IOException {
        return CliRun.line("daemon --node-id 1 --insecure on --stats-interval 0 --unicast-port " + freeUdpPort()
                + " --heartbeat-port " + freeUdpPort() + " --gms 127.0.0.1:" + freeTcpPort() + " " + extra);
    }

    private static void assertOneLineError(CliRun run, String start) {
        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertTrue(lines[0].startsWith(start), lines[0]);
        assertEquals("Try 'ricochet daemon --help'.", lines[1], run.err());
        assertEquals(2, lines.length, run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
