package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.ricochet.api.ApiException;
import io.ricochet.api.Await;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.support.Platform;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may use the local API: TCP off, the quotas per user, and the group allow list. Users are played over TCP on
 * one machine by giving the server each connection's principal; one test reads the real uid over a Unix socket.
 */
class ApiAccessControlTest {
    private static final Principal ALICE = Principal.of(1000, 1000);
    private static final Principal BOB = Principal.of(1001, 50);
    private static final byte[] PAYLOAD = {1, 2, 3};
    /** Replies are then the only frames a test reads. */
    private static final int NO_LOCAL_DELIVERIES = ApiRequest.Options.NO_ECHO | ApiRequest.Options.NO_LOCAL;

    @TempDir
    Path dir;
    private final FakeLocalNode node = new FakeLocalNode(7, 1024);
    /** The principal the server gives the next connection. */
    private final AtomicReference<Principal> next = new AtomicReference<>(Principal.TCP);
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<AutoCloseable> open = new ArrayList<>();
    private ApiServer server;

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
        node.close();
    }

    private void start(ApiAccess access) throws IOException {
        server = new ApiServer(node, ApiConfig.defaults().withPort(0).withAccess(access), null, ch -> next.get(),
                clock::get);
        server.start();
    }

    /** A TCP connection, past HELLO, that the server took for {@code who}; it gets no deliveries of local sends. */
    private RawConnection connect(Principal who) throws Exception {
        next.set(who);
        RawConnection c = new RawConnection(server.boundPort());
        open.add(c);
        c.hello();
        assertInstanceOf(ApiReply.Ok.class, c.call(new ApiRequest.Options(99, NO_LOCAL_DELIVERIES)));
        return c;
    }

    private static ApiReply.Error error(ApiReply reply, ApiException.Code code) {
        ApiReply.Error e = assertInstanceOf(ApiReply.Error.class, reply);
        assertEquals(code, e.code(), e.message());
        return e;
    }

    @Test
    void tcpOffMeansNoTcpListener() throws Exception {
        Platform.need(Epoll.isAvailable(), "Unix sockets need Netty's native epoll: " + Epoll.unavailabilityCause());
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Path socket = dir.resolve("api.sock");
        server = new ApiServer(node, ApiConfig.defaults().withPort(port).withUnixSocket(socket)
                .withAccess(ApiAccess.defaults().withTcp(false)));
        server.start();
        assertEquals(0, server.counter(ApiCounter.TCP_OPEN));
        IllegalStateException e = assertThrows(IllegalStateException.class, server::boundPort);
        assertTrue(e.getMessage().contains("TCP is off"), e.getMessage());
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
        try (RawConnection unix = RawConnection.unix(socket).hello()) {
            assertInstanceOf(ApiReply.Ok.class, unix.call(new ApiRequest.Join(2, 5)));
        }
    }

    @Test
    void tcpOnIsShownInTheCounters() throws Exception {
        start(ApiAccess.defaults());
        assertEquals(1, server.counter(ApiCounter.TCP_OPEN));
        assertEquals(1L, server.counters().get("TCP_OPEN"));
        server.close();
        assertEquals(0, server.counter(ApiCounter.TCP_OPEN));
    }

    @Test
    void shouldRefuseAUsersConnectionsBeyondItsQuotaOnly() throws Exception {
        start(ApiAccess.defaults().withMaxConnectionsPerPrincipal(2));
        RawConnection first = connect(ALICE);
        connect(ALICE);
        next.set(ALICE);
        RawConnection third = new RawConnection(server.boundPort());
        open.add(third);
        ApiReply.Error refused = error(assertInstanceOf(ApiReply.class, third.read()),
                ApiException.Code.LIMIT_EXCEEDED);
        assertTrue(refused.message().contains("uid 1000") && refused.message().contains("api-max-connections-per-uid"),
                refused.message());
        assertTrue(third.closedByPeer());
        assertEquals(1, server.counter(ApiCounter.PRINCIPAL_CONNECTION_REFUSALS));
        connect(BOB);
        connect(Principal.TCP);

        first.close();
        Await.until("alice's closed connection given back", () -> server.counter(ApiCounter.CONNECTIONS_OPEN) == 3);
        connect(ALICE);
        assertEquals(1, server.counter(ApiCounter.PRINCIPAL_CONNECTION_REFUSALS));
    }

    @Test
    void shouldRefuseAUsersGroupsBeyondItsQuotaOverAllItsConnections() throws Exception {
        start(ApiAccess.defaults().withMaxGroupsPerPrincipal(3));
        RawConnection a1 = connect(ALICE);
        RawConnection a2 = connect(ALICE);
        assertInstanceOf(ApiReply.Ok.class, a1.call(new ApiRequest.Join(2, 1)));
        assertInstanceOf(ApiReply.Ok.class, a1.call(new ApiRequest.Join(3, 2)));
        assertInstanceOf(ApiReply.Ok.class, a2.call(new ApiRequest.Join(2, 3)));
        ApiReply.Error refused = error(a2.call(new ApiRequest.Join(3, 4)), ApiException.Code.LIMIT_EXCEEDED);
        assertTrue(refused.message().contains("api-max-groups-per-uid"), refused.message());
        assertEquals(1, server.counter(ApiCounter.PRINCIPAL_GROUP_REFUSALS));
        assertInstanceOf(ApiReply.Ok.class, connect(BOB).call(new ApiRequest.Join(2, 4)), "bob is not locked out");

        assertInstanceOf(ApiReply.Ok.class, a1.call(new ApiRequest.Leave(4, 1)));
        assertInstanceOf(ApiReply.Ok.class, a2.call(new ApiRequest.Join(5, 4)), "a group left is given back");
        a1.close();
        Await.until("alice's closed connection leaves its group", () -> node.listeners(2) == 0);
        assertInstanceOf(ApiReply.Ok.class, a2.call(new ApiRequest.Join(6, 5)), "so are a closed one's groups");
    }

    @Test
    void shouldRefuseAUsersSendsBeyondItsRate() throws Exception {
        start(ApiAccess.defaults().withMaxSendsPerSecondPerPrincipal(2));
        RawConnection alice = connect(ALICE);
        RawConnection bob = connect(BOB);
        assertInstanceOf(ApiReply.Ok.class, alice.call(new ApiRequest.Join(2, 5)));
        assertInstanceOf(ApiReply.Ok.class, bob.call(new ApiRequest.Join(2, 5)));
        assertInstanceOf(ApiReply.Ok.class, alice.call(new ApiRequest.Send(3, 5, PAYLOAD)));
        assertInstanceOf(ApiReply.Ok.class, alice.call(new ApiRequest.TrySend(4, 5, PAYLOAD)));
        ApiReply.Error busy = error(alice.call(new ApiRequest.Send(5, 5, PAYLOAD)), ApiException.Code.BUSY);
        assertTrue(busy.message().contains("api-max-sends-per-second-per-uid"), busy.message());
        error(alice.call(new ApiRequest.TrySend(6, 5, PAYLOAD)), ApiException.Code.BUSY);
        assertEquals(2, server.counter(ApiCounter.SEND_RATE_REFUSALS));
        assertInstanceOf(ApiReply.Ok.class, bob.call(new ApiRequest.Send(3, 5, PAYLOAD)), "bob has his own bucket");

        clock.addAndGet(500_000_000L);
        assertInstanceOf(ApiReply.Ok.class, alice.call(new ApiRequest.Send(7, 5, PAYLOAD)), "half a second: one");
        error(alice.call(new ApiRequest.Send(8, 5, PAYLOAD)), ApiException.Code.BUSY);
    }

    @Test
    void shouldLetOnlyListedUsersJoinOrSendToAListedGroup() throws Exception {
        start(ApiAccess.defaults().withGroupAccess(GroupAccess.parse("5:uid=1000;6:gid=50")));
        RawConnection alice = connect(ALICE);
        RawConnection bob = connect(BOB);
        RawConnection tcp = connect(Principal.TCP);
        assertInstanceOf(ApiReply.Ok.class, alice.call(new ApiRequest.Join(2, 5)), "uid listed");
        ApiReply.Error refused = error(bob.call(new ApiRequest.Join(2, 5)), ApiException.Code.NOT_PERMITTED);
        assertTrue(refused.message().contains("uid 1001") && refused.message().contains("group 5"), refused.message());
        assertInstanceOf(ApiReply.Ok.class, bob.call(new ApiRequest.Join(3, 6)), "gid listed");
        error(alice.call(new ApiRequest.Join(3, 6)), ApiException.Code.NOT_PERMITTED);
        ApiReply.Error overTcp = error(tcp.call(new ApiRequest.Join(2, 5)), ApiException.Code.NOT_PERMITTED);
        assertTrue(overTcp.message().contains("Unix socket"), overTcp.message());
        error(tcp.call(new ApiRequest.Send(3, 6, PAYLOAD)), ApiException.Code.NOT_A_MEMBER);
        assertInstanceOf(ApiReply.Ok.class, tcp.call(new ApiRequest.Join(4, 7)), "a group not listed is open");
        assertInstanceOf(ApiReply.Ok.class, alice.call(new ApiRequest.Send(4, 5, PAYLOAD)));
        assertEquals(3, server.counter(ApiCounter.ACCESS_REFUSALS));
        assertEquals(1, node.listeners(5));
    }

    @Test
    void shouldReadTheRealUidOfAUnixSocketPeer() throws Exception {
        Platform.need(Epoll.isAvailable(), "Unix sockets need Netty's native epoll: " + Epoll.unavailabilityCause());
        // A file this process creates is owned by its effective uid, which SO_PEERCRED reports.
        Path mine = Files.createFile(dir.resolve("mine"));
        int uid = (Integer) Files.getAttribute(mine, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int other = uid == 0 ? 1 : uid - 1;
        Path socket = dir.resolve("api.sock");
        server = new ApiServer(node, ApiConfig.defaults().withPort(0).withUnixSocket(socket)
                .withAccess(ApiAccess.defaults().withGroupAccess(GroupAccess.parse("5:uid=" + uid + ";6:uid="
                        + other))));
        server.start();
        try (RawConnection unix = RawConnection.unix(socket).hello()) {
            assertInstanceOf(ApiReply.Ok.class, unix.call(new ApiRequest.Join(2, 5)));
            ApiReply.Error refused = error(unix.call(new ApiRequest.Join(3, 6)), ApiException.Code.NOT_PERMITTED);
            assertTrue(refused.message().contains("uid " + uid), refused.message());
        }
        try (RawConnection tcp = new RawConnection(server.boundPort()).hello()) {
            error(tcp.call(new ApiRequest.Join(2, 5)), ApiException.Code.NOT_PERMITTED);
        }
    }
}
