package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.epoll.Epoll;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.server.ApiAccess;
import io.ricochet.api.server.ApiConfig;
import io.ricochet.support.Platform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** send, listen and stats reach a daemon with TCP off through {@code --api unix:/path} as through HOST:PORT. */
class ApiCommandsOverUnixSocketTest {
    private static final int GROUP = 5;

    @TempDir
    Path dir;
    private ApiFixture fixture;
    private String api;

    @BeforeEach
    void setUp() {
        Platform.need(Epoll.isAvailable(), "Unix sockets need Netty's native epoll: " + Epoll.unavailabilityCause());
        Path socket = dir.resolve("api.sock");
        // As the package runs it: the Unix socket only.
        fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket)
                .withAccess(ApiAccess.defaults().withTcp(false)));
        api = "unix:" + socket;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void shouldSendAndListenOverTheUnixSocket() throws Exception {
        CompletableFuture<CliRun> listen = CompletableFuture.supplyAsync(
                () -> CliRun.line("listen --api " + api + " --group " + GROUP + " --expect 2 --seconds 120"));
        Await.until("ricochet listen joins the group", () -> fixture.node().listeners(GROUP) == 1 || listen.isDone());
        Path lines = Files.write(dir.resolve("lines.txt"), List.of("alpha", "beta"));

        CliRun send = CliRun.line("send --api " + api + " --group " + GROUP + " --input " + lines);

        assertEquals(0, send.exitCode(), send.err());
        assertEquals("sent 2 message(s) to group 5\n", send.out());
        CliRun received = listen.get(60, TimeUnit.SECONDS);
        assertEquals(0, received.exitCode(), received.err());
        String[] out = received.out().split("\n");
        assertEquals("7 5 0 alpha", out[0]);
        assertEquals("7 5 1 beta", out[1]);
    }

    @Test
    void shouldReadStatsOverTheUnixSocket() throws Exception {
        CliRun run = CliRun.line("stats --json --api " + api);

        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals(ApiFixture.NODE_ID, json.get("node").asInt());
        assertEquals(1, json.get("api").get("CONNECTIONS_OPEN").asInt());
        assertEquals(0, json.get("api").get("TCP_OPEN").asInt(), "TCP is off");
    }

    @Test
    void shouldSayWhichSocketItCannotReach() {
        Path missing = dir.resolve("missing.sock");

        CliRun run = CliRun.line("stats --api unix:" + missing);

        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("cannot connect to the Ricochet daemon at unix:" + missing), run.err());
    }
}
