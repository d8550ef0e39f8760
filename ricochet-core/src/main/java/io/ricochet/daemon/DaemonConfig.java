package io.ricochet.daemon;

import io.ricochet.api.server.ApiConfig;
import io.ricochet.auth.Authentication;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.metrics.MetricsBind;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.protocols.ProtocolTuning;

import io.ricochet.setting.Setting;
import io.ricochet.wire.HeaderFlyweight;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;

/**
 * Validated settings of one daemon. Built by {@code ricochet daemon} from its config file and flags; every bad
 * value is refused with a message naming the setting.
 *
 * @param nodeId              this node's id, unique in the cluster
 * @param iface               network interface multicast is joined and sent on (e.g. {@code v0}, {@code lo})
 * @param address             unicast IPv4 address of this node on that interface (bound and advertised)
 * @param unicastPort         UDP port for repairs, NAKs and retransmissions
 * @param api                 the local API: address (loopback by default), port, bytes queued for one connection
 *                            before deliveries to it are dropped, and its limits
 * @param gms                 per GMS partition, in partition order, its replicas' control addresses
 * @param engine              protocol settings
 * @param rxBufferPackets     capacity of each class (control, data) of the application-level receive buffer
 * @param socketReceiveBuffer SO_RCVBUF requested for every socket, in bytes
 * @param injectLoss          loss injected at this receiver ({@code none} for real runs)
 * @param lossScope           which packet types injected loss applies to
 * @param seed                seeds the engine, the loss injector and the receive buffer's random drops
 * @param statsIntervalSeconds how often counters are logged at INFO (0 = never)
 * @param transport           socket implementation
 * @param receiveThread       whether a thread of its own reads the sockets and hands batches to the engine's thread
 *                            (the receive buffer then has two halves of {@code rxBufferPackets / 2}), or the engine's
 *                            thread reads them itself
 * @param gso                 whether what the engine sends goes out in UDP GSO runs where epoll and the kernel offer
 *                            them ({@link GsoBatcher})
 * @param gro                 whether the sockets read UDP GRO runs (datagrams of one length from one sender, read in
 *                            one call and split) where epoll and the kernel offer them, or recvmmsg batches
 * @param multicastTtl        IP_MULTICAST_TTL of sent multicast (0 or 1: never leaves the link)
 * @param protocol            the protocol this daemon runs in every group it joins
 * @param heartbeatPort       UDP port (on {@code address}) where the failure detector's heartbeats are answered, by a
 *                            thread of their own
 * @param heartbeatStallMs    heartbeats go unanswered once the engine's thread has made no progress for this long
 * @param sendQueue           application sends that may wait for the engine at once; beyond, a send gets BUSY
 * @param sendRateLimit       datagrams of application messages sent per second at most (0 = no limit)
 * @param bundleBytes         the largest payload a datagram of several application messages fills, at most the
 *                            engine's payload (0 = no bundling: each message its own datagram)
 * @param bundleLingerUs      how long a datagram being filled waits for more messages, 0..1000 us (0 = until the
 *                            end of the engine thread's batch of sends)
 * @param auth                how every datagram is authenticated (the cluster key file), or insecure mode
 * @param tls                 the mutual TLS of the links to the GMS (this node's certificate), or plaintext
 * @param mtu                 the largest IP packet the network carries unfragmented (1500 on Ethernet, 9000 with
 *                            jumbo frames, up to 65535 on loopback): every datagram fits one; the interface must
 *                            carry it
 * @param rack                this node's rack, 1..65535, or 0 for none: the GMS has the rack's failure detector watch
 *                            it
 * @param metrics             where the Prometheus endpoint listens, or {@link MetricsBind#OFF} (the default)
 * @param maxGroups           groups this node may be in at once (joins in flight included), 1..{@link #MAX_GROUPS}:
 *                            a JOIN of one more gets LIMIT_EXCEEDED naming {@code max-groups}; the API's groups per
 *                            connection may not exceed it
 * @param tuning              the settings of the protocols other than Ricochet (QSM's token hold)
 * @param failureDetectors    the failure detectors whose heartbeats are answered, each only at its listed address,
 *                            or {@link DetectorAddresses#NONE}: every heartbeat answered at its source address
 * @param messages            the bounds of large messages and FIFO deliveries
 */
public record DaemonConfig(int nodeId, String iface, InetAddress address, int unicastPort, ApiConfig api,
                           List<List<InetSocketAddress>> gms, RicochetConfig engine,
                           int rxBufferPackets,
                           int socketReceiveBuffer, LossSpec injectLoss, LossScope lossScope, long seed,
                           int statsIntervalSeconds, Transport transport, boolean receiveThread,
                           boolean gso, boolean gro, int multicastTtl,
                           ProtocolChoice protocol, int heartbeatPort, int heartbeatStallMs, int sendQueue,
                           int sendRateLimit, int bundleBytes, int bundleLingerUs, Authentication auth,
                           TlsSettings tls, int mtu, int rack, MetricsBind metrics, int maxGroups,
                           ProtocolTuning tuning, DetectorAddresses failureDetectors, MessageLimits messages) {

    /** The smallest bundle: the kind byte and two empty messages with their lengths. */
    public static final int MIN_BUNDLE_BYTES = BundleFormat.KIND + 2 * BundleFormat.LENGTH;
    /** The longest linger: a message waits at most 1 ms for others. */
    public static final int MAX_BUNDLE_LINGER_US = 1_000;

    /**
     * Default of {@link #maxGroups()}: 16 384 idle groups take a few MB of heap (docs/results.md, "Thousands of
     * groups").
     */
    public static final int DEFAULT_MAX_GROUPS = 16_384;
    /** Upper bound of {@link #maxGroups()}, that of the API's groups per connection too. */
    public static final int MAX_GROUPS = ApiConfig.MAX_COUNT_LIMIT;

    /** The smallest receive buffer, per class: two halves of 8 with a receive thread. */
    public static final int MIN_RX_BUFFER = 16;

    /** Which socket implementation to use. */
    public enum Transport { AUTO, EPOLL, NIO }

    public DaemonConfig {
        Objects.requireNonNull(iface, "interface");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(injectLoss, "inject-loss");
        Objects.requireNonNull(lossScope, "loss-scope");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(tuning, "tuning");
        Objects.requireNonNull(failureDetectors, "failure-detectors");
        Objects.requireNonNull(messages, "messages");
        try {
            gms = GmsAddresses.requireValid(gms);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gms = " + GmsAddresses.format(gms) + ": " + e.getMessage() + "; "
                    + GmsAddresses.SYNTAX, e);
        }
        require(DaemonKeys.NODE_ID, nodeId, "must be " + DaemonKeys.NODE_ID.rangeText());
        require(DaemonKeys.UNICAST_PORT, unicastPort, "must be in " + DaemonKeys.UNICAST_PORT.rangeText());
        require(DaemonKeys.RX_BUFFER, rxBufferPackets, "must be " + DaemonKeys.RX_BUFFER.rangeText() + " packets");
        require(DaemonKeys.SOCKET_RCVBUF, socketReceiveBuffer, "must be " + DaemonKeys.SOCKET_RCVBUF.rangeText()
                + " bytes");
        require(DaemonKeys.STATS_INTERVAL, statsIntervalSeconds, "must be 0 (off) or more");
        require(DaemonKeys.MULTICAST_TTL, multicastTtl, "must be 0 or 1: Ricochet traffic never leaves the link");
        require(DaemonKeys.RACK, rack, "must be in 1.." + DaemonKeys.RACK.max() + ", or 0 for none");
        require(DaemonKeys.HEARTBEAT_PORT.allows(heartbeatPort) && heartbeatPort != unicastPort, "heartbeat-port",
                heartbeatPort, "must be in " + DaemonKeys.HEARTBEAT_PORT.rangeText() + " and differ from unicast-port");
        require(DaemonKeys.HEARTBEAT_STALL, heartbeatStallMs, "must be " + DaemonKeys.HEARTBEAT_STALL.rangeText());
        require(DaemonKeys.SEND_QUEUE, sendQueue, "must be in " + DaemonKeys.SEND_QUEUE.rangeText());
        require(DaemonKeys.SEND_RATE_LIMIT, sendRateLimit, "must be 0 (no limit) or more");
        require(bundleBytes == 0 || bundleBytes >= MIN_BUNDLE_BYTES && bundleBytes <= engine.maxPayload(),
                "bundle-bytes", bundleBytes, "must be 0 (no bundling) or in " + MIN_BUNDLE_BYTES + ".."
                        + engine.maxPayload() + " (the payload key): a datagram holds at most the engine's payload");
        require(DaemonKeys.BUNDLE_LINGER, bundleLingerUs, "must be in " + DaemonKeys.BUNDLE_LINGER.rangeText()
                + " microseconds (0 = send at the end of the batch)");
        require(DaemonKeys.MAX_GROUPS, maxGroups, "must be in " + DaemonKeys.MAX_GROUPS.rangeText());
        require(api.maxGroupsPerConnection() <= maxGroups, "api-max-groups-per-connection",
                api.maxGroupsPerConnection(), "must be at most max-groups (" + maxGroups + "): one connection's "
                        + "groups are the node's");
        require(address.getAddress().length == 4, "address", address.getHostAddress(), "must be an IPv4 address");
        require(DaemonKeys.MTU, mtu, "must be in " + DaemonKeys.MTU.rangeText() + " bytes");
        require(protocol != ProtocolChoice.RICOCHET || engine.maxFrameLength() <= maxFrameLength(mtu, auth), "mtu",
                mtu, "is too small for the engine's frames of " + engine.maxFrameLength() + " bytes");
    }

    /**
     * The largest frame a daemon with this mtu builds: its datagram (the frame and, when authenticated, the trailer)
     * fits one IP packet; other protocols than Ricochet keep to standard frames.
     */
    public static int maxFrameLength(int mtu, Authentication auth) {
        return HeaderFlyweight.frameLimit(mtu, auth.enabled() ? DatagramAuth.TRAILER_LENGTH : 0);
    }

    /** The largest datagram this daemon sends or accepts: its largest frame and the authentication trailer. */
    public int maxDatagramLength() {
        int frame = protocol == ProtocolChoice.RICOCHET ? engine.maxFrameLength()
                : HeaderFlyweight.STANDARD_FRAME_LENGTH;
        return frame + (auth.enabled() ? DatagramAuth.TRAILER_LENGTH : 0);
    }

    /**
     * The bytes the daemon's packet buffers hold when full: the receive buffer's two rings (allocated at start) and
     * the data cache, a datagram per slot (it keeps the received datagrams themselves), the retransmit buffer and
     * the repair buffer, the largest payload per slot.
     */
    public long bufferBytes() {
        long rings = receiveThread ? 2L * 2 * (rxHalfPackets() + 1) * maxDatagramLength()
                : 2L * (rxBufferPackets + 1) * maxDatagramLength();
        long cache = (long) engine.dataCacheCapacity() * maxDatagramLength();
        long packets = (long) engine.retransmitCapacity() + engine.repairBufferCapacity();
        return rings + cache + packets * engine.maxPayload();
    }

    /** Packets per class in each half of the receive buffer when a receive thread fills one half at a time. */
    public int rxHalfPackets() {
        return rxBufferPackets / 2;
    }

    /** Refuses {@code value} unless in {@code setting}'s declared range, saying {@code rule}. */
    private static void require(Setting setting, long value, String rule) {
        require(setting.allows(value), setting.name(), value, rule);
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    /** How datagrams and control links are authenticated, for logs and stats (never key material). */
    public String authentication() {
        if (!auth.enabled() && !tls.enabled()) {
            return "OFF (insecure: any host that reaches the sockets can forge traffic and membership)";
        }
        return auth.describe() + "; control links " + tls.describe();
    }

    public InetSocketAddress unicastAddress() {
        return new InetSocketAddress(address, unicastPort);
    }

    public InetSocketAddress heartbeatAddress() {
        return new InetSocketAddress(address, heartbeatPort);
    }
}
