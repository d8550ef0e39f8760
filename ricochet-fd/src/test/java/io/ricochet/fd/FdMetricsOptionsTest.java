package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** ricochet-fd's --metrics-port and --metrics-address: bad values and a taken port are one clear line. */
class FdMetricsOptionsTest {
    private record Run(int exitCode, String err) {
        static Run of(String... args) {
            CommandLine commandLine = FdMain.commandLine();
            StringWriter err = new StringWriter();
            commandLine.setOut(new PrintWriter(new StringWriter(), true));
            commandLine.setErr(new PrintWriter(err, true));
            return new Run(commandLine.execute(args), err.toString());
        }
    }

    @Test
    void shouldRefuseABadPortOrAddressWithExitCodeTwo() {
        Run port = Run.of("--id", "a", "--insecure", "--metrics-port", "70000");
        assertEquals(2, port.exitCode(), port.err());
        assertTrue(port.err().startsWith("ricochet-fd: --metrics-port = 70000: must be in 1..65535, or 0 for no "
                + "metrics endpoint"), port.err());
        Run address = Run.of("--id", "a", "--insecure", "--metrics-port", "9400", "--metrics-address", "nowhere");
        assertEquals(2, address.exitCode(), address.err());
        assertTrue(address.err().startsWith("ricochet-fd: --metrics-address = nowhere: not an IP address literal"),
                address.err());
    }

    @Test
    void shouldReportATakenMetricsPortOnOneLineWithExitCodeOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run run = Run.of("--id", "a", "--insecure", "--bind", "127.0.0.1:0", "--metrics-port",
                    Integer.toString(taken.getLocalPort()));

            assertEquals(1, run.exitCode(), run.err());
            String[] lines = run.err().split("\\R");
            assertEquals(1, lines.length, run.err());
            assertTrue(lines[0].startsWith("ricochet-fd: cannot serve metrics on 127.0.0.1:" + taken.getLocalPort()),
                    lines[0]);
            assertTrue(lines[0].endsWith("(choose another --metrics-port, or 0 for no metrics endpoint)"), lines[0]);
            assertFalse(run.err().contains("\tat "), run.err());
        }
    }
}
