package io.ricochet.gms;

import io.netty.channel.Channel;
import io.ricochet.support.RateLimitedLog;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Applies a listening socket's {@link ConnectionCaps} to each connection it accepts, before anything is added to
 * the connection's pipeline (so before any TLS work): one over a cap is closed at once, counted
 * ({@link GmsCounter#CONNECTIONS_OVER_TOTAL}, {@link GmsCounter#CONNECTIONS_OVER_ADDRESS}) and logged at WARN at most
 * once a minute per cap; an admitted one gives its place back when it closes. Used on the replica's event loop.
 */
final class ConnectionGate {
    private final ConnectionCaps caps;
    private final GmsCounters counters;
    private final RateLimitedLog overTotal;
    private final RateLimitedLog overAddress;
    private final String socket;

    /**
     * @param socket      names the listening socket in the log (e.g. "partition 0")
     * @param overTotal   the WARN of connections over the total cap (shared by the replica's sockets)
     * @param overAddress the WARN of connections over the cap per address (shared likewise)
     */
    ConnectionGate(FrontDoorSettings settings, GmsCounters counters, String socket, RateLimitedLog overTotal,
                   RateLimitedLog overAddress) {
        this.caps = new ConnectionCaps(settings.maxConnections(), settings.maxConnectionsPerAddress());
        this.counters = counters;
        this.socket = socket;
        this.overTotal = overTotal;
        this.overAddress = overAddress;
    }

    /** Whether {@code channel}, just accepted, may stay; if not it is being closed, and counted. */
    boolean admit(Channel channel) {
        InetSocketAddress remote = (InetSocketAddress) channel.remoteAddress();
        InetSocketAddress local = (InetSocketAddress) channel.localAddress();
        if (remote == null || local == null) {
            channel.close();   // closed already, between accept and here
            return false;
        }
        InetAddress peer = remote.getAddress();
        boolean sameHost = peer.equals(local.getAddress());
        switch (caps.admit(peer, sameHost)) {
            case ADMITTED -> {
                channel.closeFuture().addListener(f -> caps.release(peer, sameHost));
                return true;
            }
            case OVER_TOTAL -> {
                counters.increment(GmsCounter.CONNECTIONS_OVER_TOTAL);
                overTotal.warn("{}: connection from {} closed: {} connections open, the most taken "
                        + "(--max-connections)", socket, peer.getHostAddress(), caps.total());
            }
            case OVER_PER_ADDRESS -> {
                counters.increment(GmsCounter.CONNECTIONS_OVER_ADDRESS);
                overAddress.warn("{}: connection from {} closed: {} connections open from that address, the most "
                        + "taken (--max-connections-per-address)", socket, peer.getHostAddress(), caps.from(peer));
            }
            default -> throw new IllegalStateException();
        }
        channel.close();
        return false;
    }
}
