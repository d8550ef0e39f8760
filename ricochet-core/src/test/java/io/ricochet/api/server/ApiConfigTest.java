package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.client.RicochetClient;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ApiConfigTest {

    @Test
    void shouldListenOnLoopbackPort7400WithBoundedBuffersByDefault() {
        ApiConfig config = ApiConfig.defaults();

        assertEquals("127.0.0.1", config.bindAddress());
        assertEquals(7400, config.port());
        assertEquals(65_536, config.maxFrameLength());
        assertEquals(1024 * 1024, config.writeBufferLowWaterMark());
        assertEquals(4 * 1024 * 1024, config.writeBufferHighWaterMark());
    }

    static Stream<Supplier<ApiConfig>> invalid() {
        ApiConfig d = ApiConfig.defaults();
        return Stream.of(() -> d.withPort(-1), () -> d.withPort(65_536), () -> d.withBindAddress(" "),
                () -> d.withMaxFrameLength(100), () -> d.withMaxFrameLength(Integer.MAX_VALUE),
                () -> d.withWriteBufferWaterMarks(0, 10), () -> d.withWriteBufferWaterMarks(10, 5),
                () -> d.withMaxConnections(0), () -> d.withMaxConnections(65_537),
                () -> d.withHelloTimeout(Duration.ZERO), () -> d.withHelloTimeout(Duration.ofHours(2)),
                () -> d.withHelloTimeout(null), () -> d.withPartialFrameTimeout(Duration.ofNanos(999_999)),
                () -> d.withMaxRequestsInFlight(0), () -> d.withMaxGroupsPerConnection(-1),
                () -> d.withMaxGroupsPerConnection(65_537));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void shouldRefuseInvalidSettings(Supplier<ApiConfig> config) {
        assertThrows(IllegalArgumentException.class, config::get);
    }

    @Test
    void shouldReportAPortInUseAsAnIoException() throws Exception {
        try (ApiFixture running = new ApiFixture();
                FakeLocalNode node = new FakeLocalNode(1, 100);
                ApiServer second = new ApiServer(node, ApiConfig.defaults().withPort(running.port()))) {
            IOException e = assertThrows(IOException.class, second::start);

            assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + running.port()), e.getMessage());
        }
    }

    @Test
    void shouldAdvertiseTheSmallerOfNodeAndFramePayloadLimits() throws Exception {
        try (ApiFixture fixture = new ApiFixture()) {
            assertEquals(ApiFixture.MAX_PAYLOAD, fixture.client().maxPayload());
        }
        try (FakeLocalNode node = new FakeLocalNode(1, 1_000_000);
                ApiServer server = new ApiServer(node, ApiConfig.defaults().withPort(0))) {
            server.start();
            try (RicochetClient client = RicochetClient.connect("127.0.0.1", server.boundPort())) {
                assertEquals(65_536 - ApiProtocol.DELIVER_OVERHEAD, client.maxPayload());
            }
        }
    }
}
