package io.ricochet.bench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.epoll.Epoll;
import io.ricochet.bench.BenchMain;
import io.ricochet.support.Platform;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench api-transport}: a tiny run measures both transports and accounts for every message; bad flags. */
@Timeout(180)
class ApiTransportCommandTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void shouldMeasureBothTransportsAndDeliverEveryMessage() throws Exception {
        Platform.need(Epoll.isAvailable(),
                () -> "the Unix socket needs Netty's native epoll: " + Epoll.unavailabilityCause());
        Path json = dir.resolve("result.json");

        Run run = run("api-transport", "--calls", "50", "--warmup-calls", "10", "--messages", "300",
                "--warmup-messages", "20", "--senders", "3", "--payload", "100", "--rounds", "2", "--out",
                json.toString());

        assertEquals(0, run.code(), run.err());
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals(List.of("tcp", "unix"), fieldNames(report.get("transports")));
        for (String transport : List.of("tcp", "unix")) {
            JsonNode figures = report.get("transports").get(transport);
            assertTrue(figures.get("address").asText().startsWith(transport.equals("unix") ? "unix:/" : "127.0.0.1:"),
                    figures.toString());
            assertEquals(List.of("send", "stats"), fieldNames(figures.get("roundTrips")));
            for (JsonNode latency : figures.get("roundTrips")) {
                assertEquals(100, latency.get("calls").asLong(), "50 calls in each of 2 rounds");
                assertTrue(latency.get("p50Us").asDouble() > 0, latency.toString());
                assertTrue(latency.get("p99Us").asDouble() >= latency.get("p50Us").asDouble(), latency.toString());
            }
            JsonNode rounds = figures.get("delivery").get("rounds");
            assertEquals(2, rounds.size());
            for (JsonNode round : rounds) {
                assertEquals(300, round.get("sent").asLong());
                assertEquals(300, round.get("delivered").asLong() + round.get("overflowed").asLong(),
                        round.toString());
                assertTrue(round.get("messagesPerSecond").asDouble() > 0, round.toString());
            }
        }
        assertTrue(run.out().contains("unix send"), run.out());
        assertTrue(run.out().contains("messages/s"), run.out());
    }

    @Test
    void shouldRefuseANonPositiveCountNamingTheFlag() {
        Run run = run("api-transport", "--rounds", "0", "--out", dir.resolve("x.json").toString());

        assertEquals(2, run.code());
        assertTrue(run.err().contains("--rounds 0: must be at least 1"), run.err());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
