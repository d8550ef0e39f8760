package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.epoll.Epoll;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import io.ricochet.support.Platform;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A daemon set up as the package sets it, TCP off and a Unix socket, starts, says where it listens and serves. */
class DaemonApiListenersTest {
    @TempDir
    Path dir;

    @Test
    void shouldServeOnTheUnixSocketOnlyWithTcpOff() throws Exception {
        Platform.need(Epoll.isAvailable(), "Unix sockets need Netty's native epoll: " + Epoll.unavailabilityCause());
        Path socket = dir.resolve("api.sock");
        Map<String, String> flags = new HashMap<>(Map.of("node-id", "1", "insecure", "on", "stats-interval", "0",
                "unicast-port", Integer.toString(freeUdpPort()), "heartbeat-port", Integer.toString(freeUdpPort()),
                "gms", "127.0.0.1:" + freeTcpPort(), "api-tcp", "off", "api-unix-socket", socket.toString()));
        try (Daemon daemon = Daemon.start(DaemonSettings.resolve(null, null, flags))) {
            assertEquals("unix:" + socket + " only (TCP off)", daemon.apiListeners());
            assertThrows(IllegalStateException.class, daemon::apiPort);
            try (RicochetClient client = RicochetClient.connect(socket, ClientOptions.defaults())) {
                assertEquals(1, client.nodeId());
            }
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
