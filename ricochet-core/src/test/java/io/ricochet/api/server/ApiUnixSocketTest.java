package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.client.ApiAddress;
import io.ricochet.client.ApiConnectionException;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import io.ricochet.support.Platform;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API's Unix domain socket: who may connect (mode, group), the same service as TCP, and its file's life. */
class ApiUnixSocketTest {
    private static final int GROUP = 9;
    private static final long WAIT_S = 30;

    @TempDir
    Path dir;
    private Path socket;

    @BeforeEach
    void setUp() {
        Platform.need(Epoll.isAvailable(), "Unix sockets need Netty's native epoll: " + Epoll.unavailabilityCause());
        socket = dir.resolve("api.sock");
    }

    @Test
    void shouldServeAClientOverTheUnixSocketAndTcpAtTheSameTime() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket));
                RicochetClient unix = RicochetClient.connect(socket, ClientOptions.defaults());
                RicochetClient tcp = RicochetClient.connect("127.0.0.1", fixture.port())) {
            assertEquals(socket, fixture.server().unixSocket());
            assertEquals(ApiFixture.NODE_ID, unix.nodeId());
            assertEquals(ApiFixture.MAX_PAYLOAD, unix.maxPayload());
            unix.join(GROUP);
            tcp.join(GROUP);

            assertEquals(0, unix.send(GROUP, text("over unix")));
            assertEquals(1, tcp.send(GROUP, text("over tcp")));
            fixture.node().deliver(3, GROUP, 77, text("from node 3"));

            for (RicochetClient client : List.of(unix, tcp)) {
                assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), ApiFixture.NODE_ID, 0, "over unix");
                assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), ApiFixture.NODE_ID, 1, "over tcp");
                assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), 3, 77, "from node 3");
            }
            assertEquals(2, fixture.server().counter(ApiCounter.CONNECTIONS_OPEN));
        }
    }

    @Test
    void shouldConnectThroughAParsedUnixAddressAsTheCliDoes() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket));
                RicochetClient client = ApiAddress.parse("unix:" + socket).connect(ClientOptions.defaults()
                        .withClientName("cli"))) {
            client.join(GROUP);
            assertEquals(0, client.send(GROUP, text("hi")));
            assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), ApiFixture.NODE_ID, 0, "hi");
        }
    }

    @Test
    void shouldGiveTheSocketFileTheConfiguredModeAndGroup() throws Exception {
        String groupName = aGroupToGiveTheSocket();
        ApiConfig config = ApiConfig.defaults().withUnixSocket(socket).withUnixSocketMode("rw-rw----");
        if (groupName != null) {
            config = config.withUnixSocketGroup(groupName);
        }
        try (ApiFixture fixture = new ApiFixture(config)) {
            PosixFileAttributes attributes = Files.readAttributes(socket, PosixFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            assertTrue(attributes.isOther(), "a socket, not a regular file");
            assertEquals("rw-rw----", PosixFilePermissions.toString(attributes.permissions()));
            assertEquals(List.of("api.sock"), listNames(dir), "no staging directory left behind");
            Platform.need(groupName != null, "no group could be determined to give the socket; group not checked");
            assertEquals(groupName, attributes.group().getName());
        }
    }

    @Test
    void shouldGiveTheSocketOnlyItsOwnerByDefault() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket))) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket,
                    LinkOption.NOFOLLOW_LINKS)));
        }
    }

    @Test
    void shouldSetTheModeAlsoWhenThePathIsTooLongToBindItInAStagingDirectory() throws Exception {
        Path longSocket = tooLongToStage();
        Path deep = longSocket.getParent();

        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(longSocket)
                .withUnixSocketMode("rw-rw-r--"));
                RicochetClient client = RicochetClient.connect(longSocket, ClientOptions.defaults())) {
            assertEquals(ApiFixture.NODE_ID, client.nodeId());
            assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(longSocket,
                    LinkOption.NOFOLLOW_LINKS)));
            assertEquals(List.of("api.sock"), listNames(deep));
        }
        assertFalse(Files.exists(longSocket, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldDeleteTheSocketFileOnClose() throws Exception {
        ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket));
        RicochetClient client = RicochetClient.connect(socket, ClientOptions.defaults());
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));

        fixture.close();

        assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
        assertNull(fixture.server().unixSocket());
        Await.until("the client sees the connection closed", () -> !client.isOpen());
        assertThrows(ApiConnectionException.class, () -> RicochetClient.connect(socket, ClientOptions.defaults()));
        client.close();
    }

    @Test
    void shouldCountUnixAndTcpConnectionsAgainstOneLimit() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket).withMaxConnections(2));
                RicochetClient tcp = RicochetClient.connect("127.0.0.1", fixture.port());
                RicochetClient unix = RicochetClient.connect(socket, ClientOptions.defaults())) {
            // Repeated: the daemon closes a refused connection at once, and over a Unix socket the client's HELLO
            // write then fails (EPIPE) racing with its read of the ERROR; the reason must be the ERROR every time.
            for (int i = 0; i < 20; i++) {
                ApiConnectionException e = assertThrows(ApiConnectionException.class,
                        () -> RicochetClient.connect(socket, ClientOptions.defaults()));
                assertTrue(e.getMessage().contains("LIMIT_EXCEEDED"), e.getMessage());
            }
            assertEquals(20, fixture.server().counter(ApiCounter.CONNECTIONS_REFUSED));
            assertTrue(tcp.isOpen() && unix.isOpen());
        }
    }

    @Test
    void shouldRefuseAPathWhoseDirectoryDoesNotExist() throws Exception {
        Path missing = dir.resolve("no-such-dir").resolve("api.sock");

        IOException e = refusedAtStart(missing);

        assertTrue(e.getMessage().contains("cannot listen on Unix socket " + missing), e.getMessage());
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void shouldRefuseToReplaceAFileThatIsNotASocket() throws Exception {
        Files.writeString(socket, "precious");

        IOException e = refusedAtStart(socket);

        assertTrue(e.getMessage().contains("exists and is not a socket"), e.getMessage());
        assertEquals("precious", Files.readString(socket));
    }

    @Test
    void shouldRefuseASocketAnotherProcessAcceptsOn() throws Exception {
        try (ServerSocketChannel other = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            other.bind(UnixDomainSocketAddress.of(socket));

            IOException e = refusedAtStart(socket);

            assertTrue(e.getMessage().contains("another process accepts connections on it"), e.getMessage());
            assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
        }
    }

    @Test
    void shouldReplaceAStaleSocketNothingAcceptsOn() throws Exception {
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "the JDK leaves the file of a closed socket");

        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(socket));
                RicochetClient client = RicochetClient.connect(socket, ClientOptions.defaults())) {
            assertEquals(ApiFixture.NODE_ID, client.nodeId());
        }
    }

    @Test
    void shouldReplaceAStaleSocketAlsoWhenItBindsInPlace() throws Exception {
        Path longSocket = tooLongToStage();
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(longSocket));
        }

        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withUnixSocket(longSocket));
                RicochetClient client = RicochetClient.connect(longSocket, ClientOptions.defaults())) {
            assertEquals(ApiFixture.NODE_ID, client.nodeId());
        }
        assertFalse(Files.exists(longSocket, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldRefuseAnUnknownGroupAndLeaveNothingBehind() throws Exception {
        ApiConfig config = ApiConfig.defaults().withPort(0).withUnixSocket(socket)
                .withUnixSocketGroup("no-such-group-ricochet");
        try (FakeLocalNode node = new FakeLocalNode(1, 100); ApiServer server = new ApiServer(node, config)) {
            IOException e = assertThrows(IOException.class, server::start);

            assertTrue(e.getMessage().contains("no group named 'no-such-group-ricochet'"), e.getMessage());
            assertEquals(List.of(), listNames(dir));
            assertThrows(IllegalStateException.class, server::boundPort, "TCP is not left listening either");
        }
    }

    /**
     * A socket path within the limit, but too long for a staging directory (".ricochet-" and 8 hex digits) next to
     * it, so the listener binds it in place.
     */
    private Path tooLongToStage() throws IOException {
        Path parent = dir.toAbsolutePath();
        int room = ApiConfig.MAX_UNIX_SOCKET_PATH_BYTES - parent.toString().length() - "/x/api.sock".length();
        Platform.need(room > 21, "the temporary directory's path is too long for this test: " + parent);
        Path deep = Files.createDirectory(parent.resolve("x".repeat(room)));
        Path longSocket = deep.resolve("api.sock");
        assertEquals(ApiConfig.MAX_UNIX_SOCKET_PATH_BYTES - 1, longSocket.toString().length());
        return longSocket;
    }

    private static IOException refusedAtStart(Path path) throws Exception {
        try (FakeLocalNode node = new FakeLocalNode(1, 100);
                ApiServer server = new ApiServer(node, ApiConfig.defaults().withPort(0).withUnixSocket(path))) {
            return assertThrows(IOException.class, server::start);
        }
    }

    /**
     * A group the socket can be given: as root any group, so one other than root's own if there is one; otherwise
     * the group a new file of this process gets (its primary group). Null if none can be found.
     */
    private String aGroupToGiveTheSocket() throws IOException {
        Path probe = Files.createFile(dir.resolve("probe"));
        GroupPrincipal own = Files.readAttributes(probe, PosixFileAttributes.class).group();
        Files.delete(probe);
        if ("root".equals(System.getProperty("user.name"))) {
            for (String candidate : List.of("nogroup", "daemon", "users")) {
                try {
                    return dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(candidate)
                            .getName();
                } catch (UserPrincipalNotFoundException e) {
                    // try the next one
                }
            }
        }
        return own == null ? null : own.getName();
    }

    private static List<String> listNames(Path directory) throws IOException {
        try (var entries = Files.list(directory)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void assertDelivery(Delivery delivery, int origin, long seqno, String text) {
        assertNotNull(delivery, "no delivery of '" + text + "'");
        assertEquals(origin, delivery.origin());
        assertEquals(GROUP, delivery.group());
        assertEquals(seqno, delivery.seqno());
        assertArrayEquals(text(text), delivery.payload());
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
