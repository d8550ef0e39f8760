package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.ricochet.api.ApiException;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import io.ricochet.support.Platform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad clients get one ERROR frame and are disconnected; the daemon, its counters and a well-behaved client beside
 * them carry on. The malformed inputs are sent over TCP and over the Unix domain socket (where epoll is available):
 * both serve the same pipeline.
 */
@Timeout(120)
class ApiServerRobustnessTest {
    private static final int GROUP = 5;
    private static final byte[] HELLO = RawConnection.bytes(new ApiRequest.Hello(1, ApiProtocol.VERSION, "raw"));

    @TempDir
    Path dir;
    private ApiFixture fixture;
    private RicochetClient good;

    /** How a bad client reaches the server. */
    enum Transport {
        TCP, UNIX
    }

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture(Epoll.isAvailable() ? ApiConfig.defaults().withUnixSocket(dir.resolve("api.sock"))
                : ApiConfig.defaults());
        good = fixture.client();
        good.join(GROUP);
    }

    private RawConnection connect(Transport transport) throws IOException {
        if (transport == Transport.TCP) {
            return new RawConnection(fixture.port());
        }
        Platform.need(Epoll.isAvailable(), "Unix sockets need Netty's native epoll: " + Epoll.unavailabilityCause());
        return RawConnection.unix(fixture.server().unixSocket());
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("garbage", bytes("GET / HTTP/1.1\r\n\r\n"), "frame length above the limit of 65536"),
                Arguments.of("oversized length prefix", new byte[] {0x7f, -1, -1, -1, 1, 0, 0, 0, 1},
                        "frame length above the limit"),
                Arguments.of("length one over the limit", new byte[] {0, 1, 0, 1, 1, 0, 0, 0, 1},
                        "frame length above the limit"),
                Arguments.of("frame shorter than a header", new byte[] {0, 0, 0, 2, 1, 0}, "shorter than the 5-byte"),
                Arguments.of("SEND before HELLO", RawConnection.bytes(new ApiRequest.Send(1, GROUP, new byte[3])),
                        "HELLO must be the first frame, got SEND"),
                Arguments.of("unknown type after HELLO", concat(HELLO, new byte[] {0, 0, 0, 5, 0x7f, 0, 0, 0, 9}),
                        "unknown frame type 0x7f"),
                Arguments.of("a reply sent by the client", concat(HELLO, RawConnection.bytes(new ApiReply.Ok(2, 0))),
                        "OK is not a request"),
                Arguments.of("second HELLO", concat(HELLO, HELLO), "HELLO sent twice"),
                Arguments.of("OPTIONS with an unknown flag",
                        concat(HELLO, new byte[] {0, 0, 0, 9, 7, 0, 0, 0, 2, 0, 0, 1, 0}),
                        "unknown option flags 0x00000100"),
                Arguments.of("JOIN with a short body", concat(HELLO, new byte[] {0, 0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0}),
                        "JOIN body of 3 bytes, expected 4"));
    }

    static Stream<Arguments> badInputOverEachTransport() {
        return Stream.of(Transport.values()).flatMap(transport -> badInput().map(args -> {
            Object[] input = args.get();
            return Arguments.of(transport, input[0], input[1], input[2]);
        }));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badInputOverEachTransport")
    void shouldAnswerBadInputWithOneErrorAndClose(Transport transport, String name, byte[] input, String reason)
            throws Exception {
        try (RawConnection bad = connect(transport)) {
            bad.write(input);

            ApiReply.Error error = firstError(bad);
            assertEquals(ApiException.Code.MALFORMED_FRAME, error.code(), error.message());
            assertTrue(error.message().contains(reason), error.message());
            assertTrue(bad.closedByPeer());
        }
        assertEquals(1, fixture.server().counter(ApiCounter.MALFORMED_FRAMES));
        assertGoodClientStillWorks();
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void shouldReportAFrameTruncatedByHalfClose(Transport transport) throws Exception {
        try (RawConnection bad = connect(transport)) {
            bad.write(concat(HELLO, new byte[] {0, 0, 0, 100, 4, 0, 0, 0, 2, 0, 0}));
            assertInstanceOf(ApiReply.HelloReply.class, bad.read());
            bad.shutdownOutput();

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, bad.read());
            assertEquals(ApiException.Code.MALFORMED_FRAME, error.code());
            assertTrue(error.message().contains("input ended inside a frame (11 bytes"), error.message());
            assertTrue(bad.closedByPeer());
        }
        assertGoodClientStillWorks();
    }

    @Test
    void shouldCountAFrameTruncatedByClose() throws Exception {
        try (RawConnection bad = new RawConnection(fixture.port())) {
            bad.write(concat(HELLO, new byte[] {0, 0, 0, 100, 4, 0, 0, 0, 2}));
            assertInstanceOf(ApiReply.HelloReply.class, bad.read());
        }
        Await.until("the truncated frame is counted",
                () -> fixture.server().counter(ApiCounter.MALFORMED_FRAMES) == 1);
        assertGoodClientStillWorks();
    }

    @Test
    void shouldRefuseAVersionOlderThanItSpeaks() throws Exception {
        try (RawConnection bad = new RawConnection(fixture.port())) {
            bad.send(new ApiRequest.Hello(3, ApiProtocol.OLDEST_VERSION - 1, "ancient"));

            assertEquals(ApiException.Code.UNSUPPORTED_VERSION,
                    assertInstanceOf(ApiReply.Error.class, bad.read()).code());
            assertTrue(bad.closedByPeer());
        }
    }

    @Test
    void shouldRefuseAnotherProtocolVersion() throws Exception {
        try (RawConnection bad = new RawConnection(fixture.port())) {
            bad.send(new ApiRequest.Hello(3, ApiProtocol.VERSION + 1, "future"));

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, bad.read());
            assertEquals(ApiException.Code.UNSUPPORTED_VERSION, error.code());
            assertEquals(3, error.requestId());
            assertTrue(bad.closedByPeer());
        }
        assertGoodClientStillWorks();
    }

    @Test
    void shouldKeepTheConnectionForAFrameAtTheLimitWithTooLargeAPayload() throws Exception {
        try (RawConnection raw = new RawConnection(fixture.port()).hello()) {
            raw.call(new ApiRequest.Join(2, GROUP));
            byte[] payload = new byte[ApiProtocol.DEFAULT_MAX_FRAME_LENGTH - ApiProtocol.HEADER_LENGTH - 4];

            ApiReply reply = raw.call(new ApiRequest.Send(3, GROUP, payload));
            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, reply);
            assertEquals(ApiException.Code.PAYLOAD_TOO_LARGE, error.code());

            raw.send(new ApiRequest.Send(4, GROUP, new byte[] {1}));
            ApiPush.Deliver deliver = assertInstanceOf(ApiPush.Deliver.class, raw.read());
            assertArrayEquals(new byte[] {1}, deliver.payload());
            assertEquals(new ApiReply.Ok(4, 0), raw.read());
        }
        assertEquals(0, fixture.server().counter(ApiCounter.MALFORMED_FRAMES));
        assertEquals(1, fixture.server().counter(ApiCounter.REQUESTS_FAILED));
    }

    @Test
    void shouldNotCountAClientThatLeavesWithoutAWord() throws Exception {
        new RawConnection(fixture.port()).close();

        Await.until("the silent connection is accepted and closed",
                () -> fixture.server().counter(ApiCounter.CONNECTIONS_ACCEPTED) == 2
                        && fixture.server().counter(ApiCounter.CONNECTIONS_OPEN) == 1);
        assertEquals(0, fixture.server().counter(ApiCounter.MALFORMED_FRAMES));
    }

    /** The first ERROR, after the HELLO_REPLY a test input may have earned. */
    private static ApiReply.Error firstError(RawConnection bad) throws Exception {
        Object frame = bad.read();
        if (frame instanceof ApiReply.HelloReply) {
            frame = bad.read();
        }
        return assertInstanceOf(ApiReply.Error.class, frame, String.valueOf(frame));
    }

    private void assertGoodClientStillWorks() throws InterruptedException {
        long seqno = good.send(GROUP, bytes("still here"));

        Delivery delivery = good.poll(30, TimeUnit.SECONDS);
        assertNotNull(delivery, "no delivery for the good client");
        assertEquals(GROUP, delivery.group());
        assertEquals(seqno, delivery.seqno());
        assertArrayEquals(bytes("still here"), delivery.payload());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
