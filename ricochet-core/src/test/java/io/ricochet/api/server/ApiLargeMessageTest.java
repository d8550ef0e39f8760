package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiException;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.api.Ordering;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Protocol version 3 (issue 34): HELLO_REPLY gives the daemon's largest message, SENDs grow to it, large DELIVERs reach
 * version 3 clients whole and are named DROPPED (or counted) for older ones, ORDER sets a group's ordering, and the
 * large frame budget bounds what partial large frames hold. Versions 1 and 2 keep their limits.
 */
class ApiLargeMessageTest {
    private static final int MIB = 1024 * 1024;
    private static final int MAX_MESSAGE = 20 * MIB;
    private static final int GROUP = 5;

    private static ApiFixture fixture() {
        return fixture(ApiConfig.defaults());
    }

    private static ApiFixture fixture(ApiConfig config) {
        return new ApiFixture(config, new FakeLocalNode(ApiFixture.NODE_ID, ApiFixture.MAX_PAYLOAD, MAX_MESSAGE));
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 11));
        }
        return bytes;
    }

    private static ApiReply.HelloReply hello(RawConnection raw, int version) throws Exception {
        raw.send(new ApiRequest.Hello(1, version, "raw"));
        return assertInstanceOf(ApiReply.HelloReply.class, raw.read());
    }

    @Test
    void shouldGiveTheLargestMessageToVersion3AndTheDatagramPayloadToVersions1And2() throws Exception {
        try (ApiFixture fixture = fixture();
                RawConnection v1 = new RawConnection(fixture.port());
                RawConnection v2 = new RawConnection(fixture.port());
                RawConnection v3 = new RawConnection(fixture.port())) {
            assertEquals(new ApiReply.HelloReply(1, 1, ApiFixture.NODE_ID, ApiFixture.MAX_PAYLOAD), hello(v1, 1));
            assertEquals(new ApiReply.HelloReply(1, 2, ApiFixture.NODE_ID, ApiFixture.MAX_PAYLOAD), hello(v2, 2));
            assertEquals(new ApiReply.HelloReply(1, 3, ApiFixture.NODE_ID, ApiFixture.MAX_PAYLOAD, MAX_MESSAGE),
                    hello(v3, 3));
        }
    }

    @Test
    void shouldServeVersion3AsVersion2WhenTheDaemonDoesNotFragment() throws Exception {
        try (ApiFixture fixture = new ApiFixture();
                RawConnection v3 = new RawConnection(fixture.port())) {
            assertEquals(ApiFixture.MAX_PAYLOAD, hello(v3, 3).maxPayload());
        }
    }

    @Test
    void shouldTakeAVersion3SendOfOneMebibyteWholeAndEchoItWhole() throws Exception {
        try (ApiFixture fixture = fixture();
                RawConnection v3 = new RawConnection(fixture.port()).hello(3)) {
            byte[] payload = pattern(MIB);
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Join(2, GROUP)));

            v3.send(new ApiRequest.Send(3, GROUP, payload));

            ApiPush.Deliver echo = assertInstanceOf(ApiPush.Deliver.class, v3.read());
            assertArrayEquals(payload, echo.payload());
            assertEquals(new ApiReply.Ok(3, echo.seqno()), v3.read());
            assertArrayEquals(payload, fixture.node().lastSent());
            v3.send(new ApiRequest.TrySend(4, GROUP, pattern(2 * MIB)));
            assertArrayEquals(pattern(2 * MIB), assertInstanceOf(ApiPush.Deliver.class, v3.read()).payload());
            assertInstanceOf(ApiReply.Ok.class, v3.read());
            Await.until("the large frames give their budget back",
                    () -> fixture.server().counter(ApiCounter.LARGE_FRAME_BYTES) == 0);
        }
    }

    @Test
    void shouldStillRefuseAVersion2SendAboveTheDatagramPayload() throws Exception {
        try (ApiFixture fixture = fixture();
                RawConnection v2 = new RawConnection(fixture.port()).hello(2)) {
            assertInstanceOf(ApiReply.Ok.class, v2.call(new ApiRequest.Join(2, GROUP)));

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class,
                    v2.call(new ApiRequest.Send(3, GROUP, new byte[ApiFixture.MAX_PAYLOAD + 1])));

            assertEquals(ApiException.Code.PAYLOAD_TOO_LARGE, error.code());
            assertTrue(error.message().contains("maximum of " + ApiFixture.MAX_PAYLOAD), error.message());
            // Its frame limit is still the configured one: a frame above it closes the connection as before.
            v2.send(new ApiRequest.Send(4, GROUP, new byte[ApiConfig.defaults().maxFrameLength()]));
            ApiReply.Error tooLong = assertInstanceOf(ApiReply.Error.class, v2.read());
            assertEquals(ApiException.Code.MALFORMED_FRAME, tooLong.code());
            assertTrue(tooLong.message().contains("above the limit of 65536"), tooLong.message());
            assertTrue(v2.closedByPeer());
        }
    }

    @Test
    void shouldCloseAVersion3ConnectionWhoseSendFrameIsAboveItsLimit() throws Exception {
        try (ApiFixture fixture = fixture();
                RawConnection v3 = new RawConnection(fixture.port()).hello(3)) {
            // Only the length prefix: refused before any byte of the frame is buffered.
            v3.write(new byte[] {0x01, 0x40, 0, 10, 0x04, 0, 0, 0, 2});

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, v3.read());
            assertEquals(ApiException.Code.MALFORMED_FRAME, error.code());
            assertTrue(error.message().contains("above the limit of " + (MAX_MESSAGE + ApiProtocol.SEND_OVERHEAD)),
                    error.message());
            assertTrue(v3.closedByPeer());
        }
    }

    @Test
    void shouldSetFifoOnTheConnectionsListenerBeforeOrAfterJoin() throws Exception {
        try (ApiFixture fixture = fixture();
                RawConnection v3 = new RawConnection(fixture.port()).hello(3);
                RawConnection other = new RawConnection(fixture.port()).hello(3)) {
            assertEquals(new ApiReply.Ok(2, 0), v3.call(new ApiRequest.Order(2, GROUP, Ordering.FIFO)));
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Join(3, GROUP)));
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Join(4, GROUP + 1)));
            assertInstanceOf(ApiReply.Ok.class, other.call(new ApiRequest.Join(2, GROUP)));

            assertEquals(List.of(true, false), fixture.node().fifo(GROUP));
            assertEquals(List.of(false), fixture.node().fifo(GROUP + 1));

            assertEquals(new ApiReply.Ok(5, 0), v3.call(new ApiRequest.Order(5, GROUP + 1, Ordering.FIFO)));
            assertEquals(new ApiReply.Ok(6, 0), v3.call(new ApiRequest.Order(6, GROUP, Ordering.UNORDERED)));
            assertEquals(List.of(false, false), fixture.node().fifo(GROUP));
            assertEquals(List.of(true), fixture.node().fifo(GROUP + 1));
        }
    }

    @Test
    void shouldBoundFifoGroupsAsGroupsPerConnection() throws Exception {
        try (ApiFixture fixture = fixture(ApiConfig.defaults().withMaxGroupsPerConnection(2));
                RawConnection v3 = new RawConnection(fixture.port()).hello(3)) {
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Order(2, 1, Ordering.FIFO)));
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Order(3, 2, Ordering.FIFO)));
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Order(4, 2, Ordering.FIFO)));

            ApiReply.Error error = assertInstanceOf(ApiReply.Error.class,
                    v3.call(new ApiRequest.Order(5, 3, Ordering.FIFO)));

            assertEquals(ApiException.Code.LIMIT_EXCEEDED, error.code());
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Order(6, 3, Ordering.UNORDERED)));
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Order(7, 1, Ordering.UNORDERED)));
            assertInstanceOf(ApiReply.Ok.class, v3.call(new ApiRequest.Order(8, 3, Ordering.FIFO)));
        }
    }

    @Test
    void shouldRefuseOrderOnVersion2AsAnUnknownType() throws Exception {
        for (int version : new int[] {1, 2}) {
            try (ApiFixture fixture = fixture();
                    RawConnection old = new RawConnection(fixture.port()).hello(version)) {
                old.send(new ApiRequest.Order(9, GROUP, Ordering.FIFO));

                ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, old.read());
                assertEquals(new ApiReply.Error(9, ApiException.Code.MALFORMED_FRAME, "unknown frame type 0x08"),
                        error);
                assertTrue(old.closedByPeer());
                assertEquals(1, fixture.server().counter(ApiCounter.MALFORMED_FRAMES));
            }
        }
    }

    @Test
    void shouldCloseAConnectionThatSendsAMalformedOrder() throws Exception {
        byte[][] bodies = {
            {0, 0, 0, 10, 0x08, 0, 0, 0, 7, 0, 0, 0, 5, 2},
            {0, 0, 0, 9, 0x08, 0, 0, 0, 7, 0, 0, 0, 5},
            {0, 0, 0, 11, 0x08, 0, 0, 0, 7, 0, 0, 0, 5, 1, 1},
        };
        String[] reasons = {"unknown ordering mode 2", "ORDER body of 4 bytes", "ORDER body of 6 bytes"};
        for (int i = 0; i < bodies.length; i++) {
            try (ApiFixture fixture = fixture();
                    RawConnection v3 = new RawConnection(fixture.port()).hello(3)) {
                v3.write(bodies[i]);

                ApiReply.Error error = assertInstanceOf(ApiReply.Error.class, v3.read());
                assertEquals(ApiException.Code.MALFORMED_FRAME, error.code());
                assertEquals(7, error.requestId());
                assertTrue(error.message().contains(reasons[i]), error.message());
                assertTrue(v3.closedByPeer());
            }
        }
    }

    @Test
    void shouldDeliverALargeMessageWholeToVersion3AndNameItDroppedToVersion2() throws Exception {
        try (ApiFixture fixture = fixture();
                RawConnection v1 = new RawConnection(fixture.port()).hello(1);
                RawConnection v2 = new RawConnection(fixture.port()).hello(2);
                RawConnection v3 = new RawConnection(fixture.port()).hello(3)) {
            for (RawConnection raw : List.of(v1, v2, v3)) {
                assertInstanceOf(ApiReply.Ok.class, raw.call(new ApiRequest.Join(2, GROUP)));
            }
            byte[] large = pattern(17 * MIB); // a DELIVER above the 16 MiB frames of versions 1 and 2
            byte[] small = {1, 2, 3};

            fixture.node().deliver(9, GROUP, 4096, large);
            fixture.node().deliver(9, GROUP, 8192, small);

            ApiPush.Deliver whole = assertInstanceOf(ApiPush.Deliver.class, v3.read());
            assertEquals(new ApiPush.Deliver(9, GROUP, 4096, large).bodyLength(), whole.bodyLength());
            assertTrue(Arrays.equals(large, whole.payload()), "the large message, whole");
            // The small one follows, or is dropped if it came while the large one still filled the write buffer.
            v3.send(new ApiRequest.Join(3, GROUP));
            for (ApiFrame frame = v3.read(); !(frame instanceof ApiReply.Ok); frame = v3.read()) {
                assertTrue(frame instanceof ApiPush.Deliver d && Arrays.equals(small, d.payload())
                        || frame instanceof ApiPush.Overflow || frame instanceof ApiPush.Dropped d
                        && d.firstId() == 8192, frame.toString());
            }

            assertEquals(new ApiPush.Overflow(1), v2.read());
            assertEquals(new ApiPush.Dropped(9, GROUP, 4096, 4096), v2.read());
            ApiFrame next = v2.read();
            assertArrayEquals(small, assertInstanceOf(ApiPush.Deliver.class, next).payload());

            assertEquals(new ApiPush.Overflow(1), v1.read());
            assertArrayEquals(small, assertInstanceOf(ApiPush.Deliver.class, v1.read()).payload());
            assertEquals(2, fixture.server().counter(ApiCounter.OVERSIZE_DROPS));
        }
    }

    @Test
    void shouldStopReadingLargeFramesBeyondTheBudgetUntilItDrains() throws Exception {
        FakeLocalNode node = new FakeLocalNode(ApiFixture.NODE_ID, ApiFixture.MAX_PAYLOAD, 4 * MIB);
        ApiServer server = new ApiServer(node, ApiConfig.defaults().withPort(0));
        server.largeFrameBudget(1); // raised to one frame of the largest message
        server.start();
        try (RawConnection first = new RawConnection(server.boundPort()).hello(3);
                RawConnection second = new RawConnection(server.boundPort()).hello(3)) {
            assertInstanceOf(ApiReply.Ok.class, first.call(new ApiRequest.Join(2, GROUP)));
            assertInstanceOf(ApiReply.Ok.class, second.call(new ApiRequest.Join(2, GROUP)));
            assertInstanceOf(ApiReply.Ok.class, first.call(new ApiRequest.Options(3, ApiRequest.Options.NO_LOCAL)));
            assertInstanceOf(ApiReply.Ok.class, second.call(new ApiRequest.Options(3, ApiRequest.Options.NO_LOCAL)));
            byte[] firstFrame = RawConnection.bytes(new ApiRequest.Send(4, GROUP, pattern(4 * MIB)));
            byte[] secondFrame = RawConnection.bytes(new ApiRequest.Send(4, GROUP, pattern(MIB)));

            first.write(Arrays.copyOf(firstFrame, 1000)); // holds the whole budget, and stalls
            Await.until("the first frame holds the budget",
                    () -> server.counter(ApiCounter.LARGE_FRAME_BYTES) == firstFrame.length - 4);
            second.write(secondFrame);
            Await.until("the second connection waits", () -> server.counter(ApiCounter.LARGE_FRAME_WAITS) == 1);
            assertEquals(firstFrame.length - 4, server.counter(ApiCounter.LARGE_FRAME_BYTES));

            first.write(Arrays.copyOfRange(firstFrame, 1000, firstFrame.length));

            assertInstanceOf(ApiReply.Ok.class, first.read());
            assertInstanceOf(ApiReply.Ok.class, second.read());
            Await.until("everything given back", () -> server.counter(ApiCounter.LARGE_FRAME_BYTES) == 0);
            assertEquals(0, server.counter(ApiCounter.MALFORMED_FRAMES));
        } finally {
            server.close();
            node.close();
        }
    }

    @Test
    void shouldGiveBackTheBudgetOfAConnectionThatClosesInsideALargeFrame() throws Exception {
        try (ApiFixture fixture = fixture()) {
            try (RawConnection v3 = new RawConnection(fixture.port()).hello(3)) {
                v3.write(Arrays.copyOf(RawConnection.bytes(new ApiRequest.Send(2, GROUP, new byte[8 * MIB])), 100));
                Await.until("the frame holds its bytes",
                        () -> fixture.server().counter(ApiCounter.LARGE_FRAME_BYTES) == 8 * MIB + 9);
            }
            Await.until("the bytes are given back", () -> fixture.server().counter(ApiCounter.LARGE_FRAME_BYTES) == 0);
        }
    }
}
