package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.client.RicochetClient;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

    @Test
    void shouldHaveNoUnixSocketByDefault() {
        ApiConfig config = ApiConfig.defaults();

        assertNull(config.unixSocket());
        assertEquals("rw-------", config.unixSocketMode());
        assertNull(config.unixSocketGroup());
    }

    @Test
    void shouldKeepTheUnixSocketSettings() {
        ApiConfig config = ApiConfig.defaults().withUnixSocket(Path.of("/run/ricochet/api.sock"))
                .withUnixSocketMode("rw-rw----").withUnixSocketGroup("ricochet").withPort(7401);

        assertEquals(Path.of("/run/ricochet/api.sock"), config.unixSocket());
        assertEquals("rw-rw----", config.unixSocketMode());
        assertEquals(PosixFilePermissions.fromString("rw-rw----"), config.unixSocketPermissions());
        assertEquals("ricochet", config.unixSocketGroup());
        assertEquals(7401, config.port());
        assertEquals("127.0.0.1", config.bindAddress());
        assertNull(config.withUnixSocket(null).unixSocket());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "relative.sock||Unix socket path 'relative.sock' must be absolute",
        "/|rw-------|names no file",
        "/run/api.sock|rw-rw---|expected 9 characters as ls -l writes them",
        "/run/api.sock|0660|Unix socket mode '0660'",
        "/run/api.sock|rw-rw-rwz|Unix socket mode 'rw-rw-rwz'"})
    void shouldExplainABadUnixSocketSetting(String path, String mode, String expected) {
        ApiConfig d = ApiConfig.defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d
                .withUnixSocket(Path.of(path)).withUnixSocketMode(mode == null ? "rw-------" : mode));

        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void shouldRefuseAUnixSocketPathTooLongForTheKernel() {
        Path path = Path.of("/" + "d".repeat(100) + "/api.sock");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ApiConfig.defaults().withUnixSocket(path));

        assertTrue(e.getMessage().contains("is 110 bytes long; the limit is 107"), e.getMessage());
    }

    @Test
    void shouldRefuseAMissingModeOrABlankGroup() {
        ApiConfig d = ApiConfig.defaults();

        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withUnixSocketMode(null)).getMessage()
                .contains("Unix socket mode must be given"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withUnixSocketGroup(" ")).getMessage()
                .contains("Unix socket group must not be blank"));
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
