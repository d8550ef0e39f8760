package io.ricochet.bench.transport;

import io.ricochet.api.server.ApiCounter;
import io.ricochet.client.ApiAddress;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.DaemonSettings;
import io.ricochet.gms.GmsConfig;
import io.ricochet.gms.GmsServer;
import io.ricochet.gms.MulticastPool;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One GMS partition and one daemon in this process, on loopback only, whose local API listens on an ephemeral TCP
 * port and on a Unix domain socket in a fresh temporary directory. Insecure (no key file, plaintext GMS link): the
 * daemon's traffic never leaves the host, and authentication would only add the same cost to both transports.
 * Multicast goes to a free port on interface {@code lo} with TTL 1.
 */
final class LoopbackDaemon implements AutoCloseable {
    private static final String MULTICAST_BASE = "239.255.0.0";
    private static final String OPEN = ApiCounter.CONNECTIONS_OPEN.name();
    private static final long CLOSE_WAIT_NS = TimeUnit.SECONDS.toNanos(2);

    private final GmsServer gms;
    private final Daemon daemon;
    private final Path socketDir;
    private final Path socket;

    private LoopbackDaemon(GmsServer gms, Daemon daemon, Path socketDir, Path socket) {
        this.gms = gms;
        this.daemon = daemon;
        this.socketDir = socketDir;
        this.socket = socket;
    }

    /** Starts the GMS partition, then the daemon (its engine seeded with {@code seed}). */
    static LoopbackDaemon start(long seed) throws Exception {
        return start(seed, Map.of());
    }

    /** As {@link #start(long)}, with daemon settings {@code settings} (key to value) on top. */
    static LoopbackDaemon start(long seed, Map<String, String> settings) throws Exception {
        GmsServer gms = new GmsServer(gmsConfig(TlsSettings.insecure()));
        Path dir = null;
        try {
            InetSocketAddress gmsAddress = gms.start();
            dir = Files.createTempDirectory("ricochet-bench-");
            Path socket = dir.resolve("api.sock");
            Map<String, String> flags = daemonFlags(seed, gmsAddress);
            flags.put("api-unix-socket", socket.toString());
            flags.putAll(settings);
            DaemonConfig config = DaemonSettings.resolve(null, null, flags);
            return new LoopbackDaemon(gms, Daemon.start(config), dir, socket);
        } catch (Exception e) {
            gms.close();
            if (dir != null) {
                Files.deleteIfExists(dir);
            }
            throw e;
        }
    }

    /**
     * The GMS partition of a loopback daemon: the only partition, on a free port of 127.0.0.1, its multicast pool on a
     * free port; its control links protected by {@code tls}.
     */
    static GmsConfig gmsConfig(TlsSettings tls) throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        return new GmsConfig(new Partitioning(0, 1), new InetSocketAddress(loopback, 0),
                new MulticastPool((Inet4Address) InetAddress.getByName(MULTICAST_BASE), freeUdpPort(loopback)),
                GmsConfig.DEFAULT_STATS_INTERVAL_SECONDS, tls);
    }

    /**
     * The settings (key to value; a map to add to) of node 1 on loopback, insecure, using the GMS partition at
     * {@code gms}: free UDP ports, the local API on a free TCP port, no stats lines.
     */
    static Map<String, String> daemonFlags(long seed, InetSocketAddress gms) throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("node-id", "1");
        flags.put("insecure", "on");
        flags.put("interface", "lo");
        flags.put("address", "127.0.0.1");
        flags.put("unicast-port", Integer.toString(freeUdpPort(loopback)));
        flags.put("heartbeat-port", Integer.toString(freeUdpPort(loopback)));
        flags.put("api-port", "0");
        flags.put("gms", "127.0.0.1:" + gms.getPort());
        flags.put("multicast-ttl", "1");
        flags.put("stats-interval", "0");
        flags.put("seed", Long.toString(seed));
        return flags;
    }

    private static int freeUdpPort(InetAddress address) throws IOException {
        try (DatagramSocket probe = new DatagramSocket(0, address)) {
            return probe.getLocalPort();
        }
    }

    private void awaitNoConnections() {
        long deadline = System.nanoTime() + CLOSE_WAIT_NS;
        try {
            while (daemon.stats().get(2, TimeUnit.SECONDS).api().getOrDefault(OPEN, 0L) > 0
                    && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // stop anyway
        }
    }

    /** The daemon itself, for in-process use through {@link io.ricochet.api.LocalNode}. */
    Daemon daemon() {
        return daemon;
    }

    /** The GMS partition. */
    GmsServer gms() {
        return gms;
    }

    /** The API's loopback TCP address. */
    ApiAddress tcp() {
        return new ApiAddress("127.0.0.1", daemon.apiPort());
    }

    /** The API's Unix domain socket. */
    ApiAddress unix() {
        return ApiAddress.unix(socket);
    }

    /**
     * Waits (up to 2 s) for the daemon to have seen its clients close, so that it does not stop while still leaving
     * their groups, then stops the daemon and the GMS partition and deletes the socket's directory.
     */
    @Override
    public void close() throws IOException {
        try {
            awaitNoConnections();
            daemon.close();
        } finally {
            gms.close();
            Files.deleteIfExists(socket);
            Files.deleteIfExists(socketDir);
        }
    }
}
