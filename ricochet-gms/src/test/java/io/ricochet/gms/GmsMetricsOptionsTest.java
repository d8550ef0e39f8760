package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** ricochet-gms's --metrics-port and --metrics-address: bad values and a taken port are one clear line. */
class GmsMetricsOptionsTest {
    private record Run(int code, String err) {
        static Run of(String... args) {
            StringWriter err = new StringWriter();
            CommandLine cli = new CommandLine(new GmsMain());
            cli.setOut(new PrintWriter(new StringWriter(), true));
            cli.setErr(new PrintWriter(err, true));
            return new Run(cli.execute(args), err.toString());
        }
    }

    @Test
    void shouldRefuseABadPortWithExitTwo() {
        Run run = Run.of("--insecure", "--metrics-port", "-1");
        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().startsWith("ricochet-gms: --metrics-port = -1: must be in 1..65535, or 0 for no metrics "
                + "endpoint"), run.err());
    }

    @Test
    void shouldFailWithExitOneOnOneLineWhenTheMetricsPortIsTaken(@TempDir Path storage) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run run = Run.of("--insecure", "--port", "0", "--raft-port", "0", "--storage", storage.toString(),
                    "--metrics-port", Integer.toString(taken.getLocalPort()));
            assertEquals(1, run.code(), run.err());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.err().startsWith("ricochet-gms: cannot serve metrics on 127.0.0.1:" + taken.getLocalPort()),
                    run.err());
            assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        }
    }
}
