package io.ricochet.gms;

import com.google.common.net.InetAddresses;
import io.netty.channel.EventLoopGroup;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.link.TcpChannels;
import io.ricochet.control.tls.TlsSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/** In-process GMS partitions on 127.0.0.1 (ephemeral ports) plus the clients a test starts against them. */
final class GmsCluster implements AutoCloseable {
    final EventLoopGroup group = TcpChannels.newGroup(2, "test-clients");
    private final GmsServer[] servers;
    private final List<InetSocketAddress> addresses = new ArrayList<>();
    private final List<AutoCloseable> clients = new ArrayList<>();
    private final TlsSettings tls;
    private final UnaryOperator<GmsConfig> adjust;

    GmsCluster(int partitions) {
        this(partitions, TlsSettings.insecure());
    }

    /** Partitions whose connections use {@code tls} (a GMS certificate), or plaintext when it is insecure. */
    GmsCluster(int partitions, TlsSettings tls) {
        this(partitions, tls, UnaryOperator.identity());
    }

    /** As above, each partition's configuration changed by {@code adjust} (other front door settings, say). */
    GmsCluster(int partitions, TlsSettings tls, UnaryOperator<GmsConfig> adjust) {
        this.tls = tls;
        this.adjust = adjust;
        servers = new GmsServer[partitions];
        for (int p = 0; p < partitions; p++) {
            servers[p] = new GmsServer(config(p, 0));
            addresses.add(start(servers[p]));
        }
    }

    List<InetSocketAddress> addresses() {
        return List.copyOf(addresses);
    }

    /** The partitions as clients take them: per partition its replicas, here one each. */
    List<List<InetSocketAddress>> replicas() {
        return GmsAddresses.oneEach(addresses);
    }

    GmsServer server(int partition) {
        return servers[partition];
    }

    /** Stops partition {@code partition} (its state is lost, as when the process dies). */
    void stop(int partition) {
        servers[partition].close();
    }

    /** Starts partition {@code partition} again, empty, on the port it had. */
    void restart(int partition) {
        servers[partition] = new GmsServer(config(partition, addresses.get(partition).getPort()));
        start(servers[partition]);
    }

    /**
     * A started client for {@code node}, a daemon process of {@code incarnation}, on the partitions in
     * {@code order}, that has asked to join {@code groups}.
     */
    GmsClient client(int node, long incarnation, RecordingListener listener, List<InetSocketAddress> order,
                     int... groups) {
        return client(node, incarnation, listener, order, TlsSettings.insecure(), groups);
    }

    /** As above, over links protected by {@code clientTls}. */
    GmsClient client(int node, long incarnation, RecordingListener listener, List<InetSocketAddress> order,
                     TlsSettings clientTls, int... groups) {
        GmsClient client = new GmsClient(node, RecordingListener.unicast(node), incarnation,
                GmsAddresses.oneEach(order), listener, group, clientTls);
        for (int g : groups) {
            client.join(g, 0);
        }
        client.start();
        clients.add(client);
        return client;
    }

    GmsClient client(int node, long incarnation, RecordingListener listener, int... groups) {
        return client(node, incarnation, listener, addresses, groups);
    }

    /** A client of {@code node}'s first process, of incarnation {@link RecordingListener#incarnation}. */
    GmsClient client(int node, RecordingListener listener, int... groups) {
        return client(node, RecordingListener.incarnation(node), listener, groups);
    }

    /** Closes {@code closeable} with the cluster. */
    <T extends AutoCloseable> T track(T closeable) {
        clients.add(closeable);
        return closeable;
    }

    @Override
    public void close() {
        for (AutoCloseable c : clients) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing " + c, e);
            }
        }
        for (GmsServer s : servers) {
            s.close();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    private GmsConfig config(int partition, int port) {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        Inet4Address base = (Inet4Address) InetAddresses.forString("239.255.0.0");
        return adjust.apply(new GmsConfig(new Partitioning(partition, servers.length), bind,
                new MulticastPool(base, 9100), 60, tls));
    }

    private static InetSocketAddress start(GmsServer server) {
        try {
            return server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
