package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiException;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClientErrorsTest {
    private static final int GROUP = 5;

    private ApiFixture fixture;
    private RicochetClient client;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
        client = fixture.client();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldRefuseSendingToAGroupNotJoined() {
        ApiException e = assertThrows(ApiException.class, () -> client.send(GROUP, new byte[1]));

        assertEquals(ApiException.Code.NOT_A_MEMBER, e.code());
        assertTrue(e.getMessage().contains("group 5"), e.getMessage());
    }

    @Test
    void shouldRefuseLeavingAGroupNotJoined() {
        ApiException e = assertThrows(ApiException.class, () -> client.leave(GROUP));

        assertEquals(ApiException.Code.NOT_A_MEMBER, e.code());
    }

    @Test
    void shouldRefuseAPayloadAboveTheMaximum() {
        client.join(GROUP);

        ApiException e = assertThrows(ApiException.class,
                () -> client.send(GROUP, new byte[ApiFixture.MAX_PAYLOAD + 1]));

        assertEquals(ApiException.Code.PAYLOAD_TOO_LARGE, e.code());
        assertEquals(0, client.send(GROUP, new byte[ApiFixture.MAX_PAYLOAD]));
    }

    @Test
    void shouldKeepWorkingAfterARefusedRequest() {
        assertThrows(ApiException.class, () -> client.send(GROUP, new byte[1]));

        client.join(GROUP);

        assertEquals(0, client.send(GROUP, new byte[1]));
        assertEquals(1L, ((Number) api(client).get("REQUESTS_FAILED")).longValue());
    }

    @Test
    void shouldFailWithAConnectionExceptionOnceTheDaemonIsGone() {
        client.join(GROUP);

        fixture.server().close();

        Await.until("the client sees the connection close", () -> !client.isOpen());
        ApiConnectionException e = assertThrows(ApiConnectionException.class, () -> client.join(GROUP + 1));
        assertTrue(e.getMessage().contains("connection to the daemon lost"), e.getMessage());
        assertThrows(ApiConnectionException.class, () -> client.poll(1, TimeUnit.SECONDS));
    }

    @Test
    void shouldFailWithAConnectionExceptionAfterClose() {
        client.close();

        ApiConnectionException e = assertThrows(ApiConnectionException.class, () -> client.join(GROUP));

        assertEquals("the client was closed", e.getMessage());
    }

    @Test
    void shouldSaySoWhenNoDaemonListens() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }

        ApiConnectionException e = assertThrows(ApiConnectionException.class,
                () -> RicochetClient.connect("127.0.0.1", port));

        assertTrue(e.getMessage().startsWith("cannot connect to the Ricochet daemon at 127.0.0.1:" + port + ": "),
                e.getMessage());
    }

    @Test
    void shouldRefuseAClientNameTooLongForHello() {
        assertThrows(IllegalArgumentException.class, () -> ClientOptions.defaults().withClientName("n".repeat(256)));
    }

    private static Map<String, Long> api(RicochetClient client) {
        return client.stats().api();
    }
}
