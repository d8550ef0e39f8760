package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiException;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.client.ApiConnectionException;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The limits of docs/api.md, "Limits": connections, HELLO timeout, partial-frame timeout and groups per connection.
 * Timeouts are configured small; the tests wait on what happens (a close, a counter), never on the clock.
 */
class ApiLimitsTest {
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final int GROUP = 5;

    @Test
    void shouldRefuseTheConnectionOverTheLimitWithLimitExceeded() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withMaxConnections(2))) {
            RicochetClient first = fixture.client();
            fixture.client();

            try (RawConnection third = new RawConnection(fixture.port())) {
                ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, third.read());
                assertEquals(ApiException.Code.LIMIT_EXCEEDED, error.code());
                assertEquals(0, error.requestId());
                assertTrue(error.message().contains("at most 2"), error.message());
                assertTrue(third.closedByPeer());
            }
            ApiConnectionException refused = assertThrows(ApiConnectionException.class,
                    () -> RicochetClient.connect("127.0.0.1", fixture.port()));
            assertTrue(refused.getMessage().contains("LIMIT_EXCEEDED"), refused.getMessage());
            assertEquals(2, fixture.server().counter(ApiCounter.CONNECTIONS_REFUSED));
            assertEquals(2, fixture.server().counter(ApiCounter.CONNECTIONS_ACCEPTED));

            first.close();
            Await.until("the closed connection frees its slot",
                    () -> fixture.server().counter(ApiCounter.CONNECTIONS_OPEN) == 1);
            assertTrue(fixture.client().isOpen());
        }
    }

    @Test
    void shouldCloseAConnectionWithoutHelloButNotAnIdleGreetedOne() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withHelloTimeout(SHORT));
                RawConnection greeted = new RawConnection(fixture.port()).hello();
                RawConnection silent = new RawConnection(fixture.port())) {
            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, silent.read());
            assertEquals(ApiException.Code.MALFORMED_FRAME, error.code());
            assertTrue(error.message().contains("no HELLO within 200 ms"), error.message());
            assertTrue(silent.closedByPeer());
            assertEquals(1, fixture.server().counter(ApiCounter.HELLO_TIMEOUTS));

            // The greeted connection has been idle longer than the silent one: it must still work.
            assertInstanceOf(ApiReply.Ok.class, greeted.call(new ApiRequest.Join(2, GROUP)));
            assertEquals(1, fixture.server().counter(ApiCounter.HELLO_TIMEOUTS));
        }
    }

    @Test
    void shouldCloseAConnectionThatLeavesAFrameHalfSentButNotAnIdleOne() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withPartialFrameTimeout(SHORT));
                RawConnection idle = new RawConnection(fixture.port()).hello();
                RawConnection stalled = new RawConnection(fixture.port()).hello()) {
            stalled.write(new byte[] {0, 0, 0, 9, 2, 0, 0});

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, stalled.read());
            assertEquals(ApiException.Code.MALFORMED_FRAME, error.code());
            assertTrue(error.message().contains("frame incomplete: 7 bytes"), error.message());
            assertTrue(error.message().contains("within 200 ms"), error.message());
            assertTrue(stalled.closedByPeer());
            assertEquals(1, fixture.server().counter(ApiCounter.PARTIAL_FRAME_TIMEOUTS));

            // Idle (no partial frame) for longer than the stalled one waited: still served.
            assertInstanceOf(ApiReply.Ok.class, idle.call(new ApiRequest.Join(2, GROUP)));
            assertEquals(1, fixture.server().counter(ApiCounter.PARTIAL_FRAME_TIMEOUTS));
            assertEquals(0, fixture.server().counter(ApiCounter.MALFORMED_FRAMES));
        }
    }

    @Test
    void shouldAcceptAFrameSentInPiecesWithinTheTimeout() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withPartialFrameTimeout(Duration.ofSeconds(30)));
                RawConnection raw = new RawConnection(fixture.port()).hello()) {
            byte[] join = RawConnection.bytes(new ApiRequest.Join(2, GROUP));
            for (byte b : join) {
                raw.write(new byte[] {b});
            }

            assertEquals(new ApiReply.Ok(2, 0), raw.read());
        }
    }

    @Test
    void shouldRefuseAJoinBeyondTheGroupLimitAndKeepTheConnection() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withMaxGroupsPerConnection(3))) {
            RicochetClient client = fixture.client();
            client.join(1);
            client.join(2);
            client.join(3);

            ApiException e = assertThrows(ApiException.class, () -> client.join(4));

            assertEquals(ApiException.Code.LIMIT_EXCEEDED, e.code());
            assertTrue(e.getMessage().contains("limit is 3"), e.getMessage());
            assertEquals(1, fixture.server().counter(ApiCounter.GROUP_LIMIT_REFUSALS));
            client.join(2);
            client.leave(1);
            client.join(4);
            client.send(4, "in".getBytes(StandardCharsets.UTF_8));
            Delivery delivery = client.poll(30, TimeUnit.SECONDS);
            assertNotNull(delivery);
            assertEquals(4, delivery.group());
            assertEquals(0, fixture.node().listeners(1));
        }
    }

    @Test
    void shouldRefuseOptionsWithUnknownFlagsAndAcceptKnownOnes() throws Exception {
        try (ApiFixture fixture = new ApiFixture();
                RawConnection raw = new RawConnection(fixture.port()).hello()) {
            assertEquals(new ApiReply.Ok(2, 0), raw.call(new ApiRequest.Options(2, ApiRequest.Options.NO_ECHO)));
            assertEquals(new ApiReply.Ok(3, 0), raw.call(new ApiRequest.Options(3, 0)));

            raw.write(new byte[] {0, 0, 0, 9, 7, 0, 0, 0, 4, -128, 0, 0, 0});

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, raw.read());
            assertEquals(ApiException.Code.MALFORMED_FRAME, error.code());
            assertEquals(4, error.requestId());
            assertTrue(raw.closedByPeer());
        }
    }

    @Test
    void shouldHaveTheDocumentedDefaults() {
        ApiConfig config = ApiConfig.defaults();

        assertEquals(256, config.maxConnections());
        assertEquals(Duration.ofSeconds(5), config.helloTimeout());
        assertEquals(Duration.ofSeconds(30), config.partialFrameTimeout());
        assertEquals(1024, config.maxRequestsInFlight());
        assertEquals(1024, config.maxGroupsPerConnection());
        assertEquals(ApiProtocol.DEFAULT_MAX_FRAME_LENGTH, config.maxFrameLength());
    }
}
