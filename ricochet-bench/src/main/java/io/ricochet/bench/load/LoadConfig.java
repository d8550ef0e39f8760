package io.ricochet.bench.load;

import io.ricochet.auth.Authentication;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.GsoBatcher;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.HeaderFlyweight;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Validated settings of one load generator ({@code bench load}); a bad value is refused with a message naming the
 * flag.
 *
 * @param nodeId            this node's id, unique in the cluster
 * @param iface             interface multicast goes out on
 * @param address           this node's unicast IPv4 address on it (registered with the GMS; NAKs come here)
 * @param unicastPort       UDP port of that address
 * @param gms               the GMS partitions, in partition order, each with its replicas
 * @param groups            the groups to join and send to, round-robin
 * @param schedule          packets per second over all groups, over time (a constant rate is one phase)
 * @param payload           payload bytes of every packet: a daemon's kind byte, then one message of the rest
 * @param tickMicros        pacing interval: one batch, one flush per tick
 * @param retransmitPerGroup sent packets kept per group to answer NAKs
 * @param lingerMillis      how long NAKs are still answered after the last packet
 * @param joinTimeoutSeconds how long to wait for the GMS views
 * @param socketBytes       SO_SNDBUF and SO_RCVBUF asked for
 * @param transport         socket implementation
 * @param run               frames sent to a group in a row before the next group's turn
 * @param gso               whether each run goes out as one UDP GSO send
 * @param multicastLoop     whether the multicast is also looped back to this host's own sockets
 * @param mtu               largest IP packet the network carries, as the daemons' {@code mtu}: every datagram
 *                          (frame and trailer) fits one
 * @param tls               the TLS of the links to the GMS (a daemon certificate for this node id), or plaintext
 * @param auth              how datagrams are authenticated: the cluster's keys (each datagram sealed as a daemon
 *                          seals it, each received one opened before it is read), or not at all ({@code --insecure})
 */
public record LoadConfig(int nodeId, String iface, InetAddress address, int unicastPort,
                         GmsEndpoints gms, GroupList groups, RateSchedule schedule, int payload,
                         int tickMicros, int retransmitPerGroup, int lingerMillis, int joinTimeoutSeconds,
                         int socketBytes, SocketKind transport, int run, boolean gso, boolean multicastLoop,
                         int mtu, TlsSettings tls, Authentication auth) {

    public LoadConfig {
        Objects.requireNonNull(iface, "interface");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(gms, "gms");
        Objects.requireNonNull(groups, "groups");
        Objects.requireNonNull(schedule, "schedule");
        require(nodeId >= 0, "--node-id", nodeId, "must be 0 or more");
        require(address.getAddress().length == 4, "--address", address.getHostAddress(), "must be IPv4");
        require(unicastPort > 0 && unicastPort < 65_536, "--unicast-port", unicastPort, "must be in 1..65535");
        require(payload >= 1 && payload <= DataFlyweight.MAX_PAYLOAD, "--payload", payload,
                "must be in 1.." + DataFlyweight.MAX_PAYLOAD + " (a kind byte, then the message)");
        require(mtu >= HeaderFlyweight.MIN_MTU && mtu <= HeaderFlyweight.MAX_MTU, "--mtu", mtu,
                "must be in " + HeaderFlyweight.MIN_MTU + ".." + HeaderFlyweight.MAX_MTU);
        int maxPayload = DaemonConfig.maxFrameLength(mtu, auth) - DataFlyweight.DATA_HEADER_LENGTH;
        require(payload <= maxPayload, "--payload", payload, "must be at most " + maxPayload + " with --mtu " + mtu
                + (auth.enabled() ? " and the " + auth.overhead() + "-byte authentication trailer" : "")
                + ": a frame and its trailer fit one IP packet, as a daemon's do");
        require(tickMicros >= 50 && tickMicros <= 100_000, "--tick-us", tickMicros, "must be in 50..100000");
        require(retransmitPerGroup >= 1, "--retransmit-buffer", retransmitPerGroup, "must be 1 or more");
        require(lingerMillis >= 0, "--linger-ms", lingerMillis, "must be 0 or more");
        require(joinTimeoutSeconds >= 1, "--join-timeout", joinTimeoutSeconds, "must be 1 or more");
        require(socketBytes >= 65_536, "--socket-buffer", socketBytes, "must be at least 65536");
        require(run >= 1 && run <= GsoBatcher.MAX_SEGMENTS, "--run", run, "must be in 1.."
                + GsoBatcher.MAX_SEGMENTS);
    }

    private static void require(boolean ok, String flag, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(flag + " " + value + ": " + rule);
        }
    }

    public InetSocketAddress unicast() {
        return new InetSocketAddress(address, unicastPort);
    }

    /** How frames go out, for the report. */
    public String sending() {
        return (run == 1 ? "round-robin" : "runs of " + run + " frames per group") + (gso ? ", GSO" : "")
                + (multicastLoop ? "" : ", multicast not looped back");
    }

    /** How datagrams are authenticated, for the report. */
    public String authentication() {
        return auth.enabled() ? "sealed and opened with the cluster key (" + auth.describe() + ")"
                : "none (--insecure)";
    }

    /** The frame length of every data packet. */
    public int frameLength() {
        return DataFlyweight.DATA_HEADER_LENGTH + payload;
    }
}
