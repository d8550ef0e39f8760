package io.ricochet.daemon;

import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.server.ApiAccess;
import io.ricochet.api.server.ApiConfig;
import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.metrics.MetricsBind;
import io.ricochet.nak.NakSettings;
import io.ricochet.qsm.QsmConfig;
import io.ricochet.setting.Setting;
import io.ricochet.setting.Setting.Agreement;
import io.ricochet.setting.Setting.Type;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting of the daemon, in the order of {@code ricochet daemon --help} and of the table in
 * docs/operations.md, section 1.4. The protocol's settings are declared beside the configs that use them
 * ({@link RicochetConfig}, {@link NakSettings}, {@link QsmConfig}) and listed here; the daemon's own are declared
 * here. {@link DaemonSettings} parses the config file and flags by these keys, {@code DaemonCommand} makes the flags
 * and their help of them, and {@code SettingsTableTest} keeps the docs' table generated from them.
 */
public final class DaemonKeys {
    /** This node's id. */
    /** The largest TCP or UDP port. */
    private static final long MAX_PORT = 65_535;
    /** The API's timeouts' upper bound, in the settings' milliseconds. */
    private static final long API_MAX_TIMEOUT_MS = ApiConfig.MAX_TIMEOUT.toMillis();

    public static final Setting NODE_ID = Setting.required("node-id", Type.INTEGER,
            "this node's id, unique in the cluster")
            .details("What its HEARTBEAT_ACKs carry, and what a failure detector's --members lists")
            .atLeast(0);

    /** How far a datagram's clock may be from this host's. */
    public static final Setting MAX_CLOCK_SKEW = Setting.millis("max-clock-skew-ms", 30_000,
            "authenticated datagrams sent further than this from this host's clock, either way, are dropped as "
                + "stale (counted, logged): keep hosts in sync with NTP, well within it")
            .details("Counted in STALE_DATAGRAMS, with a WARN naming the source (docs/design/security.md, "
                + "\"Replays\")")
            .atLeast(100);

    /** The port of repairs, NAKs and retransmissions. */
    public static final Setting UNICAST_PORT = Setting.integer("unicast-port", 7300,
            "UDP port for repairs, NAKs, retransmissions")
            .range(1, 65_535);

    /** The port of the failure detector's heartbeats. */
    public static final Setting HEARTBEAT_PORT = Setting.integer("heartbeat-port", 7500,
            "UDP port answering the failure detector's heartbeats, on a thread of its own (the GMS tells the "
                + "rack's detector; a detector with a static --members list points here)")
            .details("Sent to the GMS in REGISTER")
            .range(1, 65_535);

    /** This node's rack, 0 for none. */
    public static final Setting RACK = Setting.integer("rack", 0,
            "this node's rack (1..65535), sent to the GMS, which tells the rack's failure detector to watch it; "
                + "0: none, only a detector listing it in --members watches it")
            .details("GMS partition 0 lists the node to the rack's detector (ricochet-fd --rack R), or, while "
                + "that detector is reported failed, to a standby detector or the next rack's")
            .range(0, 0xFFFF);

    /** When heartbeats go unanswered. */
    public static final Setting HEARTBEAT_STALL = Setting.millis("heartbeat-stall-ms", 5000,
            "heartbeats go unanswered once the engine thread has made no progress for this long")
            .details("So a wedged daemon is reported")
            .atLeast(100);

    /** Bytes queued for one API client. */
    public static final Setting API_QUEUE_BYTES = Setting.integer("api-queue-bytes",
            ApiConfig.defaults().writeBufferHighWaterMark(),
            "bytes queued for one slow API client before its deliveries are dropped (counted)")
            .atLeast(16_384);

    /** The largest IP packet. */
    public static final Setting MTU = Setting.integer("mtu", 1500,
            "largest IP packet the network carries unfragmented, bytes: 1500 on Ethernet, 9000 with jumbo frames, "
                + "up to 65535 on loopback; every datagram fits one, and the interface must carry it")
            .agreedBy(Agreement.CLUSTER)
            .details("A datagram is at most a repair of r payloads and the authentication trailer. Raise it, with "
                + "payload, where the network carries jumbo frames or for a loopback cluster: fewer, larger "
                + "datagrams carry the same messages at a fraction of the CPU (docs/results.md). The daemon "
                + "refuses to start if its interface's MTU is smaller, or if its buffers (which count packets of "
                + "the largest size) could outgrow half its heap (docs/design/daemon.md, \"Datagrams larger than "
                + "1 500 bytes\")")
            .range(HeaderFlyweight.MIN_MTU, HeaderFlyweight.MAX_MTU);

    /** Sends waiting for the engine. */
    public static final Setting SEND_QUEUE = Setting.integer("send-queue", 4096,
            "application sends that may wait for the engine at once; beyond, SEND gets BUSY (the Java client "
                + "retries)")
            .details("See docs/api.md, \"Backpressure\"")
            .range(1, 1_000_000);

    /** Datagrams of application messages per second. */
    public static final Setting SEND_RATE_LIMIT = Setting.integer("send-rate-limit", 0,
            "datagrams of application messages sent per second at most (0 = no limit)")
            .atLeast(0);

    /** How long a bundle waits. */
    public static final Setting BUNDLE_LINGER = Setting.integer("bundle-linger-us", 0,
            "how long a datagram being filled waits for more messages, 0.." + DaemonConfig.MAX_BUNDLE_LINGER_US
                + " microseconds (0 = sent at the end of the engine thread's batch of sends)")
            .range(0, DaemonConfig.MAX_BUNDLE_LINGER_US);

    /** The receive buffer, per class. */
    public static final Setting RX_BUFFER = Setting.integer("rx-buffer", 8192,
            "packets per class in the application-level receive buffer")
            .details("Evictions are counted")
            .atLeast(DaemonConfig.MIN_RX_BUFFER);

    /** SO_RCVBUF. */
    public static final Setting SOCKET_RCVBUF = Setting.integer("socket-rcvbuf", 4_194_304,
            "SO_RCVBUF asked for each socket, bytes")
            .details("Capped by net.core.rmem_max")
            .atLeast(65_536);

    /** Seconds between counter logs. */
    public static final Setting STATS_INTERVAL = Setting.integer("stats-interval", 10,
            "seconds between counter logs at INFO (0 = never)")
            .atLeast(0);

    /** The multicast TTL. */
    public static final Setting MULTICAST_TTL = Setting.integer("multicast-ttl", 1,
            "multicast TTL: 0 or 1 (traffic never leaves the link)")
            .range(0, 1);

    /** Groups this node may be in. */
    public static final Setting MAX_GROUPS = Setting.integer("max-groups", DaemonConfig.DEFAULT_MAX_GROUPS,
            "groups this node may be in at once, over all API connections (1.." + DaemonConfig.MAX_GROUPS + "): "
                + "a JOIN of one more is refused (LIMIT_EXCEEDED, counted as GROUP_LIMIT_REFUSALS)")
            .details("Joins in flight included; a refused join keeps nothing, so a runaway application cannot "
                + "grow the daemon's memory. An idle group takes about 0.9 KB of heap "
                + "(docs/results.md, \"Thousands of groups\"): 16384 of them about 15 MB. The GMS leader bounds "
                + "each daemon session at 65536 groups per partition itself (ERROR TOO_MANY_GROUPS, "
                + "group-limit-refusals)")
            .range(1, DaemonConfig.MAX_GROUPS);

    /** Every key, in order. */
    public static final List<Setting> ALL = all();
    /** Every key by its name. */
    public static final Map<String, Setting> BY_NAME = byName(ALL);

    private DaemonKeys() {
    }

    private static List<Setting> all() {
        List<Setting> k = new ArrayList<>();
        k.addAll(identity());
        k.addAll(addresses());
        k.addAll(api());
        k.addAll(protocol());
        k.addAll(buffers());
        k.addAll(messages());
        k.addAll(sockets());
        k.addAll(detectors());
        k.add(RicochetConfig.STABILITY_INTERVAL);
        k.add(RicochetConfig.SEND_WINDOW);
        k.add(RicochetConfig.STABILITY_EVERY);
        k.addAll(receive());
        k.add(RicochetConfig.FOUNTAIN_BACKUP);
        k.add(TuningSettings.TUNING);
        k.add(TuningSettings.RANGE);
        k.add(TuningSettings.R_RANGE);
        k.add(QsmConfig.TOKEN_INTERVAL);
        k.add(QsmConfig.PARTITION_SIZE);
        k.add(QsmConfig.REGENERATION_FLOOR);
        k.addAll(groups());
        k.addAll(apiAccess());
        k.addAll(metrics());
        return Collections.unmodifiableList(k);
    }

    private static Map<String, Setting> byName(List<Setting> all) {
        Map<String, Setting> map = new LinkedHashMap<>();
        for (Setting s : all) {
            if (map.put(s.name(), s) != null) {
                throw new IllegalStateException("setting " + s.name() + " declared twice");
            }
        }
        return Collections.unmodifiableMap(map);
    }

    /** Who this node is and how it authenticates. */
    private static List<Setting> identity() {
        return List.of(
            NODE_ID,
            Setting.text("key-file", "",
                "the cluster's key file (mode 0600; 'ricochet keygen --out FILE' makes one): every datagram is "
                    + "authenticated with it. Required unless insecure")
                .agreedBy(Agreement.CLUSTER)
                .details("The same file on every host (docs/design/security.md, with rotation)"),
            Setting.text("tls-cert", "",
                "this daemon's certificate for its links to the GMS (PEM, OU=daemon, CN=node-<node-id>), signed by the "
                    + "CA of tls-ca ('scripts/certs' makes a test CA and certificates). Required unless insecure")
                .details("Renewal is new files and a restart (docs/design/security.md, \"Control links\")"),
            Setting.text("tls-key", "", "the private key of tls-cert: unencrypted PKCS#8 PEM, mode 0600"),
            Setting.text("tls-ca", "",
                "the cluster's CA certificate (PEM): the GMS must present a certificate it signed, with OU=gms")
                .agreedBy(Agreement.CLUSTER),
            Setting.onOff("insecure", false,
                "on: run without authentication: datagrams unauthenticated, links to the GMS in plaintext (any host "
                    + "that reaches the sockets can forge traffic; said in the log and in stats)")
                .details("No key file and no TLS files then. Never in production"),
            Setting.onOff("encrypt", false,
                "on: also encrypt every datagram's frame after its header (AES-256-CTR, the tag as IV; failure "
                    + "detection's heartbeats stay in clear). Every daemon of the cluster must agree: one that differs "
                    + "has all its datagrams refused as unauthentic. Needs key-file")
                .agreedBy(Agreement.CLUSTER)
                .details("The key is derived from the key file, so detectors need nothing; a daemon that differs is "
                    + "counted in UNAUTHENTIC_DATAGRAMS. About 0.3 us per 1 500-byte datagram at each end "
                    + "(docs/design/security.md, \"Encryption\")"),
            MAX_CLOCK_SKEW);
    }

    /** Where this node listens and whom it tells. */
    private static List<Setting> addresses() {
        return List.of(
            Setting.text("interface", "lo", "network interface for multicast (e.g. v0, eth1)")
                .details("The data network: multicast is joined and sent there"),
            Setting.text("address", "127.0.0.1", "this node's unicast IPv4 address on that interface")
                .details("Bound and advertised"),
            UNICAST_PORT,
            HEARTBEAT_PORT,
            RACK,
            HEARTBEAT_STALL);
    }

    /** The local API's listeners and limits. */
    private static List<Setting> api() {
        return List.of(
            Setting.text("api-bind", ApiConfig.DEFAULT_BIND_ADDRESS, "address of the local API (keep it on loopback)")
                .details("The TCP listener's, when api-tcp is on; TCP has no authentication"),
            Setting.integer("api-port", ApiProtocol.DEFAULT_PORT, "TCP port of the local API (0 = any free port)")
                .range(0, MAX_PORT),
            API_QUEUE_BYTES,
            Setting.text("api-unix-socket", "",
                "absolute path of a Unix domain socket the local API also listens on (empty = none); its file mode "
                    + "and group decide who may connect")
                .details("The sample config sets /run/ricochet/api.sock; the CLI reaches it with --api unix:/path"),
            Setting.text("api-unix-socket-mode", ApiConfig.DEFAULT_UNIX_SOCKET_MODE,
                "the API socket file's mode, as ls -l writes it").details("The sample config sets rw-rw----"),
            Setting.text("api-unix-socket-group", "", "the group the API socket file is given (empty = the daemon's "
                    + "own)").details("The sample config sets ricochet"),
            Setting.integer("api-max-connections", ApiConfig.DEFAULT_MAX_CONNECTIONS,
                "local API connections open at once; one more is refused (LIMIT_EXCEEDED)")
                .details("See docs/api.md, \"Limits\"").range(1, ApiConfig.MAX_COUNT_LIMIT),
            Setting.millis("api-hello-timeout-ms", ApiConfig.DEFAULT_HELLO_TIMEOUT.toMillis(),
                "a local API connection must say HELLO within this").range(1, API_MAX_TIMEOUT_MS),
            Setting.millis("api-partial-frame-timeout-ms", ApiConfig.DEFAULT_PARTIAL_FRAME_TIMEOUT.toMillis(),
                "a local API frame begun must be complete within this, or the connection is closed (idle is fine)")
                .range(1, API_MAX_TIMEOUT_MS),
            Setting.integer("api-max-requests-in-flight", ApiConfig.DEFAULT_MAX_REQUESTS_IN_FLIGHT,
                "requests one API connection may have unanswered; beyond, the daemon stops reading it")
                .range(1, ApiConfig.MAX_COUNT_LIMIT),
            Setting.text("gms", "127.0.0.1:7100",
                "the GMS partitions in partition order, separated by ','; each is its replicas host:port separated "
                    + "by '/' (e.g. 10.0.0.1:7100/10.0.0.2:7100/10.0.0.3:7100,10.0.0.1:7101/10.0.0.2:7101/"
                    + "10.0.0.3:7101): the daemon connects to one and follows it to the partition's leader")
                .agreedBy(Agreement.CLUSTER)
                .details("And to the next leader after a failover; every address is listed once (one replica per "
                    + "partition: host:port,host:port). The failure detector's --gms takes the same list"));
    }

    /** The protocol and its recovery. */
    private static List<Setting> protocol() {
        return List.of(
            Setting.text("protocol", "ricochet",
                "protocol of every group this daemon joins: ricochet|srm|fec|pbcast|ipmc|qsm (one per daemon; the GMS "
                    + "refuses a join of a group created with another)")
                .agreedBy(Agreement.GROUP)
                .details("ricochet is LEC with NAK behind it; the others are what it is compared with, ipmc being "
                    + "plain IP multicast, best effort (for the fountain carousel, 1.8), qsm a token ring per group "
                    + "(docs/design/qsm.md)"),
            RicochetConfig.R,
            RicochetConfig.C,
            RicochetConfig.STAGGER,
            NakSettings.NAK,
            NakSettings.NAK_TIMEOUT,
            NakSettings.NAK_RETRY,
            NakSettings.NAK_MAX_ATTEMPTS,
            NakSettings.NAK_RATE_LIMIT,
            RicochetConfig.SESSION_DELAY,
            RicochetConfig.PAYLOAD,
            MTU);
    }

    /** The engine's packet buffers. */
    private static List<Setting> buffers() {
        return List.of(RicochetConfig.DATA_CACHE, RicochetConfig.RETRANSMIT_BUFFER);
    }

    /** The send queue, large messages and FIFO deliveries ({@link MessageLimits}), then pacing and bundling. */
    private static List<Setting> messages() {
        return List.of(
            SEND_QUEUE,
            Setting.integer("send-queue-bytes", MessageLimits.DEFAULT.sendQueueBytes(),
                "bytes of application sends that may wait for the engine at once (at least max-message); beyond, "
                    + "SEND gets BUSY"),
            Setting.integer("max-message", MessageLimits.DEFAULT.maxMessage(),
                "the largest message an application may send, 1.." + MessageLimits.MAX_MESSAGE + " bytes: one larger "
                    + "than a datagram goes as fragments and is delivered whole, or reported LOST whole")
                .range(1, MessageLimits.MAX_MESSAGE),
            Setting.integer("reassembly-buffer", MessageLimits.DEFAULT.reassemblyBytes(),
                "bytes of fragmented messages being reassembled at once (at least max-message; one sender may hold "
                    + "half, or two messages); a message that does not fit is reported LOST and counted"),
            Setting.integer("fifo-buffer", MessageLimits.DEFAULT.fifoBytes(),
                "bytes of deliveries held back for subscribers that asked for FIFO order; past it they are delivered "
                    + "out of order and counted (FIFO_OUT_OF_ORDER)").atLeast(0),
            SEND_RATE_LIMIT,
            Setting.text("bundle-bytes", "payload",
                "small application messages are packed into one datagram up to this many bytes: 'payload' (the "
                    + "largest the engine carries), 0 (off: one message per datagram) or "
                    + DaemonConfig.MIN_BUNDLE_BYTES + "..payload; a lost datagram loses all its messages until "
                    + "repaired")
                .details("BUNDLES_SENT, BUNDLED_MESSAGES and BUNDLE_PEAK show it working (docs/design/daemon.md, "
                    + "\"Bundling\")"),
            BUNDLE_LINGER,
            RicochetConfig.REPAIR_BUFFER,
            RX_BUFFER);
    }

    /** Sockets, injected loss and logging. */
    private static List<Setting> sockets() {
        return List.of(
            SOCKET_RCVBUF,
            Setting.text("inject-loss", "none", "receive-side loss: none|uniform:L|bursty:L:b|markov:L:m")
                .details("Injected on purpose, for experiments only"),
            Setting.text("loss-scope", "data", "packet types injected loss applies to: data|all"),
            Setting.integer("seed", 1, "seed of the engine's and the injector's random choices"),
            STATS_INTERVAL,
            Setting.text("transport", "auto", "socket implementation: auto|epoll|nio")
                .details("auto: epoll where available, else nio"),
            MULTICAST_TTL);
    }

    /** Whose heartbeats are answered, and where (issue 33). */
    private static List<Setting> detectors() {
        return List.of(Setting.text("failure-detectors", "",
            "the failure detectors that may watch this node, as ID@HOST:PORT,... (each detector's --id and --bind "
                + "address; its rack's, the standbys, the next rack's): a heartbeat is answered only at its "
                + "detector's address here, never at the address it came from, and one of a detector not listed is "
                + "not answered (empty = none listed: each heartbeat answered at its source address)")
            .details("The address a datagram came from is one anyone on the path can rewrite: a heartbeat from "
                + "elsewhere is answered at the listed address and counted (HEARTBEATS_MISDIRECTED), one of a "
                + "detector not listed is counted (HEARTBEATS_UNLISTED, a WARN a minute), so that detector reports the "
                + "node failed. The next rack's detector takes the rack over when its own fails "
                + "(docs/design/security.md, \"Bound to the receiver\")"));
    }

    /** How the sockets are read and written (section 4.2.6). */
    private static List<Setting> receive() {
        return List.of(
            Setting.onOff("receive-thread", false, "off: the engine's thread reads the sockets itself; on: a "
                    + "thread of its own reads them into the receive buffer and hands the engine's thread whole "
                    + "batches (the buffer then has two halves of rx-buffer/2): the kernel's buffers stay drained "
                    + "while the engine works, at about 2 us more CPU per datagram")
                .details("Off, each datagram is processed on the core that read it: one thread fewer, and on the "
                    + "1 500-byte link against JGroups 8.0 against 10.5 us of CPU per delivery and 77 513 against "
                    + "56 685 messages/s, p99 58.8 against 63.4 ms (docs/results.md, \"As shipped\"); a busy engine "
                    + "leaves datagrams in the kernel's socket buffers (socket-rcvbuf), which overflow sooner. On is "
                    + "for a host where bursts of the engine's work would otherwise overflow them (paper, section "
                    + "4.2.6; docs/design/daemon.md, \"Receive path\")"),
            Setting.onOff("gso", true, "on: what the engine sends in a batch goes out in UDP GSO sends, datagrams "
                    + "of one length to one address as one send through the kernel's sending stack (epoll on Linux "
                    + "4.18+; elsewhere one datagram per send); off: one datagram per send")
                .details("One trip through the kernel's sending stack for a run of LEC repairs to one member "
                    + "(docs/design/daemon.md, \"Receive path\", step 5; GSO_SENDS, GSO_DATAGRAMS)"),
            Setting.onOff("gro", true, "on: the sockets take UDP GRO, so a run of datagrams of one length from one "
                    + "sender that arrives together is read in one system call and split into its datagrams (epoll on "
                    + "Linux 5.0+, datagrams of up to 32 KB; elsewhere as off); off: recvmmsg reads up to 16 datagrams "
                    + "per system call")
                .details("A run is read in one recvmsg of up to 64 KB; not used with an mtu above 32 768, where no "
                    + "two datagrams fit a run (docs/design/daemon.md, \"Receive path\", step 0; the start-up log "
                    + "line says which)"));
    }

    /** The bound of the node's groups (issue 16). */
    private static List<Setting> groups() {
        return List.of(
            Setting.integer("api-max-groups-per-connection", ApiConfig.DEFAULT_MAX_GROUPS_PER_CONNECTION,
                "groups one API connection may join; one more is refused (LIMIT_EXCEEDED); at most max-groups (when "
                    + "max-groups is set lower and this is not set, it is max-groups)")
                .range(1, ApiConfig.MAX_COUNT_LIMIT),
            MAX_GROUPS);
    }

    /** Who may use the local API and how much (issue 33). */
    private static List<Setting> apiAccess() {
        return List.of(
            Setting.onOff("api-tcp", true,
                "on: the local API listens on TCP api-bind:api-port, where ANY local user may connect, join any group, "
                    + "read its traffic and send as this node (logged at start, the TCP_OPEN gauge); off: only on "
                    + "api-unix-socket, which must then be set")
                .details("The sample config sets off (1.3, \"The local API of an installed daemon\")"),
            Setting.integer("api-max-connections-per-uid", ApiAccess.DEFAULT_MAX_CONNECTIONS_PER_PRINCIPAL,
                "local API connections one user may have open; one more is refused (LIMIT_EXCEEDED). The user of a "
                    + "Unix socket connection is its peer's uid; all TCP connections count as one user, 'tcp'")
                .details("See docs/api.md, \"Access control\"")
                .range(1, ApiConfig.MAX_COUNT_LIMIT),
            Setting.integer("api-max-groups-per-uid", ApiAccess.DEFAULT_MAX_GROUPS_PER_PRINCIPAL,
                "groups one user may be in over all its API connections; one more JOIN is refused (LIMIT_EXCEEDED)")
                .range(1, ApiConfig.MAX_COUNT_LIMIT),
            Setting.integer("api-max-sends-per-second-per-uid", 0,
                "SENDs and TRY_SENDs one user may make per second (a bucket of one second's worth); beyond, BUSY; "
                    + "0 = unlimited")
                .range(0, ApiAccess.MAX_SENDS_PER_SECOND),
            Setting.text("api-group-access", "",
                "allow list per group: GROUP:uid=N,gid=N;GROUP:... (e.g. 5:uid=1000,gid=2000;7:uid=0): only those "
                    + "uids and primary gids may JOIN or SEND to a listed group (others get NOT_PERMITTED; TCP "
                    + "connections never may); groups not listed are open to every user (empty = no list)")
                .details("Refusals are counted in api.ACCESS_REFUSALS"));
    }

    /** The Prometheus endpoint. */
    private static List<Setting> metrics() {
        return List.of(
            Setting.integer("metrics-port", 0,
                "TCP port of a Prometheus endpoint (GET /metrics) with this daemon's counters, buffers and recovery "
                    + "latency (0 = none)")
                .details("See 1.5, \"Metrics\"").range(0, MAX_PORT),
            Setting.text("metrics-address", MetricsBind.DEFAULT_ADDRESS,
                "IP address the metrics endpoint listens on: it has no authentication, so keep it on loopback or a "
                    + "management network"));
    }
}
