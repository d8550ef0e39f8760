package io.ricochet.bench.rx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench rx-paths} on loopback multicast (failsafe runs it in a private network namespace). */
@Timeout(120)
class RxPathsCommandSystemTest {
    @TempDir
    Path dir;

    private static int run(StringWriter err, String... args) {
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void bothPathsReceiveTheDatagramsSentAndReportTheirCpu() throws Exception {
        Path json = dir.resolve("rx.json");
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "rx-paths", "--rates", "2000", "--seconds", "0.5", "--warmup", "0.2", "--port",
                "41311", "--out", json.toString()), err.toString());
        JsonNode results = new ObjectMapper().readTree(json.toFile()).get("results");
        assertEquals(2, results.size());
        for (JsonNode r : results) {
            assertTrue(r.get("sentInWindow").asLong() > 0, r.toString());
            assertTrue(r.get("receivedInWindow").asLong() > 0, r.toString());
            assertTrue(r.get("receivedInWindow").asLong() <= r.get("sentInWindow").asLong() + 50, r.toString());
            assertTrue(r.get("rxThreadMicrosPerDatagram").asDouble() > 0, r.toString());
        }
    }

    @Test
    void badOptionsAreRefusedWithTheRule() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "rx-paths", "--paths", "netty,carrier-pigeon"));
        assertTrue(err.toString().contains("each must be netty or thread"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(err2, "rx-paths", "--rates", "0"));
        assertTrue(err2.toString().contains("each must be in 1..2000000"), err2.toString());
    }
}
