package io.ricochet.daemon;

import io.ricochet.control.DetectorAddresses;
import io.ricochet.api.server.ApiAccess;
import io.ricochet.api.server.ApiConfig;
import io.ricochet.api.server.GroupAccess;
import io.ricochet.auth.Authentication;
import io.ricochet.control.GmsAddresses;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.metrics.MetricsBind;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.protocols.ProtocolTuning;
import io.ricochet.qsm.QsmConfig;
import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.ricochet.RicochetConfig;
import io.ricochet.wire.HeaderFlyweight;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Turns daemon settings written as text, from a properties file and from command-line flags (flags win), into a
 * validated {@link DaemonConfig}. Keys are the flag names without dashes; every bad value or unknown key gives
 * one {@link IllegalArgumentException} whose message names the key and says what is accepted.
 */
public final class DaemonSettings {
    /** Every key with its default ({@code null} = required) and a one-line description for --help and docs. */
    public static final Map<String, String[]> KEYS = keys();

    private static final long MS = 1_000_000L;

    private final Map<String, String> values = new LinkedHashMap<>();
    private final String origin;

    private DaemonSettings(String origin) {
        this.origin = origin;
    }

    /** The keys of the send queue, large messages and FIFO deliveries ({@link MessageLimits}). */
    private static void messageKeys(Map<String, String[]> k) {
        k.put("send-queue", new String[] {"4096",
            "application sends that may wait for the engine at once; beyond, SEND gets BUSY (the Java client "
                + "retries)"});
        k.put("send-queue-bytes", new String[] {String.valueOf(MessageLimits.DEFAULT.sendQueueBytes()),
            "bytes of application sends that may wait for the engine at once (at least max-message); beyond, SEND "
                + "gets BUSY"});
        k.put("max-message", new String[] {String.valueOf(MessageLimits.DEFAULT.maxMessage()),
            "the largest message an application may send, 1.." + MessageLimits.MAX_MESSAGE + " bytes: one larger than "
                + "a datagram goes as fragments and is delivered whole, or reported LOST whole"});
        k.put("reassembly-buffer", new String[] {String.valueOf(MessageLimits.DEFAULT.reassemblyBytes()),
            "bytes of fragmented messages being reassembled at once (at least max-message; one sender may hold half, "
                + "or two messages); a message that does not fit is reported LOST and counted"});
        k.put("fifo-buffer", new String[] {String.valueOf(MessageLimits.DEFAULT.fifoBytes()),
            "bytes of deliveries held back for subscribers that asked for FIFO order; past it they are delivered out "
                + "of order and counted (FIFO_OUT_OF_ORDER)"});
    }

    private static Map<String, String[]> keys() {
        Map<String, String[]> k = new LinkedHashMap<>();
        k.put("node-id", new String[] {null, "this node's id, unique in the cluster"});
        k.put("key-file", new String[] {"",
            "the cluster's key file (mode 0600; 'ricochet keygen --out FILE' makes one): every datagram is "
                + "authenticated with it. Required unless insecure"});
        k.put("tls-cert", new String[] {"",
            "this daemon's certificate for its links to the GMS (PEM, OU=daemon, CN=node-<node-id>), signed by the "
                + "CA of tls-ca ('scripts/certs' makes a test CA and certificates). Required unless insecure"});
        k.put("tls-key", new String[] {"", "the private key of tls-cert: unencrypted PKCS#8 PEM, mode 0600"});
        k.put("tls-ca", new String[] {"",
            "the cluster's CA certificate (PEM): the GMS must present a certificate it signed, with OU=gms"});
        k.put("insecure", new String[] {"off",
            "on: run without authentication: datagrams unauthenticated, links to the GMS in plaintext (any host that "
                + "reaches the sockets can forge traffic; said in the log and in stats)"});
        k.put("encrypt", new String[] {"off",
            "on: also encrypt every datagram's frame after its header (AES-256-CTR, the tag as IV; failure detection's "
                + "heartbeats stay in clear). Every daemon of the cluster must agree: one that differs has all its "
                + "datagrams refused as unauthentic. Needs key-file"});
        k.put("max-clock-skew-ms", new String[] {"30000",
            "authenticated datagrams sent further than this from this host's clock, either way, are dropped as "
                + "stale (counted, logged): keep hosts in sync with NTP, well within it"});
        k.put("interface", new String[] {"lo", "network interface for multicast (e.g. v0, eth1)"});
        k.put("address", new String[] {"127.0.0.1", "this node's unicast IPv4 address on that interface"});
        k.put("unicast-port", new String[] {"7300", "UDP port for repairs, NAKs, retransmissions"});
        k.put("heartbeat-port", new String[] {"7500",
            "UDP port answering the failure detector's heartbeats, on a thread of its own (the GMS tells the rack's "
                + "detector; a detector with a static --members list points here)"});
        k.put("rack", new String[] {"0",
            "this node's rack (1..65535), sent to the GMS, which tells the rack's failure detector to watch it; 0: "
                + "none, only a detector listing it in --members watches it"});
        k.put("heartbeat-stall-ms", new String[] {"5000",
            "heartbeats go unanswered once the engine thread has made no progress for this long"});
        k.put("api-bind", new String[] {"127.0.0.1", "address of the local API (keep it on loopback)"});
        k.put("api-port", new String[] {"7400", "TCP port of the local API (0 = any free port)"});
        k.put("api-queue-bytes", new String[] {"4194304",
            "bytes queued for one slow API client before its deliveries are dropped (counted)"});
        k.put("api-unix-socket", new String[] {"",
            "absolute path of a Unix domain socket the local API also listens on (empty = none); its file mode and "
                + "group decide who may connect"});
        k.put("api-unix-socket-mode", new String[] {"rw-------", "the API socket file's mode, as ls -l writes it"});
        k.put("api-unix-socket-group", new String[] {"",
            "the group the API socket file is given (empty = the daemon's own)"});
        k.put("api-max-connections", new String[] {"256",
            "local API connections open at once; one more is refused (LIMIT_EXCEEDED)"});
        k.put("api-hello-timeout-ms", new String[] {"5000", "a local API connection must say HELLO within this"});
        k.put("api-partial-frame-timeout-ms", new String[] {"30000",
            "a local API frame begun must be complete within this, or the connection is closed (idle is fine)"});
        k.put("api-max-requests-in-flight", new String[] {"1024",
            "requests one API connection may have unanswered; beyond, the daemon stops reading it"});
        k.put("gms", new String[] {"127.0.0.1:7100",
            "the GMS partitions in partition order, separated by ','; each is its replicas host:port separated by '/' "
                + "(e.g. 10.0.0.1:7100/10.0.0.2:7100/10.0.0.3:7100,10.0.0.1:7101/10.0.0.2:7101/10.0.0.3:7101): the "
                + "daemon connects to one and follows it to the partition's leader"});
        k.put("protocol", new String[] {"ricochet",
            "protocol of every group this daemon joins: ricochet|srm|fec|pbcast|ipmc|qsm (one per daemon; the GMS "
                + "refuses a join of a group created with another)"});
        k.put("r", new String[] {"8", "rate-of-fire r: data packets per repair"});
        k.put("c", new String[] {"5", "rate-of-fire c: repairs per data packet"});
        k.put("stagger", new String[] {"1", "repair bin instances fed round-robin (burst tolerance)"});
        k.put("nak", new String[] {"on", "NAK layer on|off"});
        k.put("nak-timeout-ms", new String[] {"100", "wait after loss discovery before the first NAK"});
        k.put("nak-retry-ms", new String[] {"50", "interval between NAK retries"});
        k.put("nak-max-attempts", new String[] {"10", "NAKs per packet before it is reported lost"});
        k.put("nak-rate-limit", new String[] {"5000", "NAKs this node may send per second (0 = unlimited)"});
        k.put("session-delay-ms", new String[] {"50", "idle delay before a stream announces its tail (0 = off)"});
        k.put("payload", new String[] {"1024",
            "largest payload of the engine's datagrams in bytes; an application message is at most this less 1; a "
                + "repair of r of them must fit the mtu"});
        k.put("mtu", new String[] {"1500",
            "largest IP packet the network carries unfragmented, bytes: 1500 on Ethernet, 9000 with jumbo frames, "
                + "up to 65535 on loopback; every datagram fits one, and the interface must carry it"});
        k.put("data-cache", new String[] {"4096", "received packets kept for XOR recovery"});
        k.put("retransmit-buffer", new String[] {"65536",
            "sent packets kept at most to answer NAKs; each is kept for the NAK give-up time, so this divided by "
                + "that time is the highest sustained send rate"});
        messageKeys(k);
        k.put("send-rate-limit", new String[] {"0",
            "datagrams of application messages sent per second at most (0 = no limit)"});
        k.put("bundle-bytes", new String[] {"payload",
            "small application messages are packed into one datagram up to this many bytes: 'payload' (the largest "
                + "the engine carries), 0 (off: one message per datagram) or " + DaemonConfig.MIN_BUNDLE_BYTES
                + "..payload; a lost datagram loses all its messages until repaired"});
        k.put("bundle-linger-us", new String[] {"0",
            "how long a datagram being filled waits for more messages, 0.." + DaemonConfig.MAX_BUNDLE_LINGER_US
                + " microseconds (0 = sent at the end of the engine thread's batch of sends)"});
        k.put("repair-buffer", new String[] {"512", "unusable repairs kept for later"});
        k.put("rx-buffer", new String[] {"8192", "packets per class in the application-level receive buffer"});
        k.put("socket-rcvbuf", new String[] {"4194304", "SO_RCVBUF asked for each socket, bytes"});
        k.put("inject-loss", new String[] {"none", "receive-side loss: none|uniform:L|bursty:L:b|markov:L:m"});
        k.put("loss-scope", new String[] {"data", "packet types injected loss applies to: data|all"});
        k.put("seed", new String[] {"1", "seed of the engine's and the injector's random choices"});
        k.put("stats-interval", new String[] {"10", "seconds between counter logs at INFO (0 = never)"});
        k.put("transport", new String[] {"auto", "socket implementation: auto|epoll|nio"});
        k.put("multicast-ttl", new String[] {"1", "multicast TTL: 0 or 1 (traffic never leaves the link)"});
        return java.util.Collections.unmodifiableMap(tuningKeys(metricsKeys(apiAccessKeys(groupKeys(qsmKeys(
                fountainKeys(receiveKeys(stabilityKeys(detectorKeys(k))))))))));
    }

    /** Whose heartbeats are answered, and where (issue 33), added to {@code k}, which it returns. */
    private static Map<String, String[]> detectorKeys(Map<String, String[]> k) {
        k.put("failure-detectors", new String[] {"",
            "the failure detectors that may watch this node, as ID@HOST:PORT,... (each detector's --id and --bind "
                + "address; its rack's, the standbys, the next rack's): a heartbeat is answered only at its "
                + "detector's address here, never at the address it came from, and one of a detector not listed is "
                + "not answered (empty = none listed: each heartbeat answered at its source address)"});
        return k;
    }

    /** The keys of the receivers' progress reports to senders (STABLE), added to {@code k}, which it returns. */
    private static Map<String, String[]> stabilityKeys(Map<String, String[]> k) {
        k.put("stability-interval-ms", new String[] {"100",
            "how often a receiver tells each sender how far it resolved its stream, so the sender drops packets "
                + "every member has from its retransmit buffer early (0 = off: each is kept the NAK give-up time)"});
        k.put("send-window", new String[] {"4096",
            "packets this daemon may have sent to one group beyond what some member has reported receiving (flow "
                + "control: a sender is held to its slowest receiver); the next send there waits for a report, or "
                + "until the window's oldest packet has been kept the NAK give-up time (0 = off; needs "
                + "stability-interval-ms)"});
        k.put("stability-every", new String[] {"128",
            "a receiver also reports its progress once it has delivered this many packets since its last report "
                + "(0 = only every stability-interval-ms): at high rates a sender's retransmit buffer then follows "
                + "its receivers closely"});
        return k;
    }

    /** How the sockets are read (section 4.2.6), added to {@code k}, which it returns. */
    private static Map<String, String[]> receiveKeys(Map<String, String[]> k) {
        k.put("receive-thread", new String[] {"off", "off: the engine's thread reads the sockets itself; on: a "
                + "thread of its own reads them into the receive buffer and hands the engine's thread whole batches "
                + "(the buffer then has two halves of rx-buffer/2): the kernel's buffers stay drained while the "
                + "engine works, at about 2 us more CPU per datagram"});
        k.put("gso", new String[] {"on", "on: what the engine sends in a batch goes out in UDP GSO sends, datagrams "
                + "of one length to one address as one send through the kernel's sending stack (epoll on Linux 4.18+; "
                + "elsewhere one datagram per send); off: one datagram per send"});
        k.put("gro", new String[] {"on", "on: the sockets take UDP GRO, so a run of datagrams of one length from one "
                + "sender that arrives together is read in one system call and split into its datagrams (epoll on "
                + "Linux 5.0+, datagrams of up to 32 KB; elsewhere as off); off: recvmmsg reads up to 16 datagrams per "
                + "system call"});
        return k;
    }

    /** The fountain backup's key (docs/design/fountain.md, section 6), added to {@code k}, which it returns. */
    private static Map<String, String[]> fountainKeys(Map<String, String[]> k) {
        k.put("fountain-backup", new String[] {"off",
            "on|off: NAKs for a burst of a sender's packets longer than stagger x r are answered with fountain "
                + "(LT) symbols of the burst multicast to the group (needs nak on; every member must agree)"});
        return k;
    }

    /** Rate-of-fire tuning's key (docs/design/lec.md, "Rate-of-fire that tunes itself"), added to {@code k}. */
    private static Map<String, String[]> tuningKeys(Map<String, String[]> k) {
        k.put("rate-of-fire-tuning", new String[] {"off",
            "on|off: each group's c is tuned from the losses this node sees, within rate-of-fire-range, aiming at "
                + "1e-4 losses left to NAK per data packet (members need not agree); off: c stays as set (c)"});
        k.put("rate-of-fire-range", new String[] {"2..10", "with rate-of-fire-tuning on: MIN..MAX, the range c is "
                + "tuned in"});
        return k;
    }

    /** QSM's setting (docs/design/qsm.md), added to {@code k}, which it returns. */
    private static Map<String, String[]> qsmKeys(Map<String, String[]> k) {
        k.put("qsm-token-interval-ms", new String[] {"1",
            "with protocol qsm: how long each ring member holds the token before passing it on, "
                + QsmConfig.MIN_TOKEN_INTERVAL_MS + ".." + (long) QsmConfig.MAX_TOKEN_INTERVAL_MS + " ms, decimals "
                + "allowed (a ring of m members turns every m intervals; every member should agree)"});
        k.put("qsm-partition-size", new String[] {"5",
            "with protocol qsm: most members of a partition; a group larger than this is split into partitions with a "
                + "token ring each, whose leaders run a ring of their own (" + QsmConfig.MIN_PARTITION_SIZE + ".."
                + QsmConfig.MAX_PARTITION_SIZE + "; every member must agree)"});
        k.put("qsm-regeneration-floor-ms", new String[] {"100",
            "with protocol qsm: shortest wait before a member with work that has not seen the token makes a new one "
                + "(0.." + QsmConfig.MAX_REGENERATION_FLOOR_MS + " ms; the rounds of the ring decide when longer): "
                + "a process stalled for a few token holds otherwise regenerates tokens that supersede live ones"});
        return k;
    }

    /** Who may use the local API and how much (issue 33), added to {@code k}, which it returns. */
    private static Map<String, String[]> apiAccessKeys(Map<String, String[]> k) {
        k.put("api-tcp", new String[] {"on",
            "on: the local API listens on TCP api-bind:api-port, where ANY local user may connect, join any group, "
                + "read its traffic and send as this node (logged at start, the TCP_OPEN gauge); off: only on "
                + "api-unix-socket, which must then be set"});
        k.put("api-max-connections-per-uid", new String[] {
            Integer.toString(ApiAccess.DEFAULT_MAX_CONNECTIONS_PER_PRINCIPAL),
            "local API connections one user may have open; one more is refused (LIMIT_EXCEEDED). The user of a Unix "
                + "socket connection is its peer's uid; all TCP connections count as one user, 'tcp'"});
        k.put("api-max-groups-per-uid", new String[] {Integer.toString(ApiAccess.DEFAULT_MAX_GROUPS_PER_PRINCIPAL),
            "groups one user may be in over all its API connections; one more JOIN is refused (LIMIT_EXCEEDED)"});
        k.put("api-max-sends-per-second-per-uid", new String[] {"0",
            "SENDs and TRY_SENDs one user may make per second (a bucket of one second's worth); beyond, BUSY; "
                + "0 = unlimited"});
        k.put("api-group-access", new String[] {"",
            "allow list per group: GROUP:uid=N,gid=N;GROUP:... (e.g. 5:uid=1000,gid=2000;7:uid=0): only those uids "
                + "and primary gids may JOIN or SEND to a listed group (others get NOT_PERMITTED; TCP connections "
                + "never may); groups not listed are open to every user (empty = no list)"});
        return k;
    }

    /** The bound of the node's groups (issue 16), added to {@code k}, which it returns. */
    private static Map<String, String[]> groupKeys(Map<String, String[]> k) {
        k.put("api-max-groups-per-connection", new String[] {"1024",
            "groups one API connection may join; one more is refused (LIMIT_EXCEEDED); at most max-groups (when "
                + "max-groups is set lower and this is not set, it is max-groups)"});
        k.put("max-groups", new String[] {Integer.toString(DaemonConfig.DEFAULT_MAX_GROUPS),
            "groups this node may be in at once, over all API connections (1.." + DaemonConfig.MAX_GROUPS + "): "
                + "a JOIN of one more is refused (LIMIT_EXCEEDED, counted as GROUP_LIMIT_REFUSALS)"});
        return k;
    }

    /** The keys of the Prometheus endpoint, added to {@code k}, which it returns. */
    private static Map<String, String[]> metricsKeys(Map<String, String[]> k) {
        k.put("metrics-port", new String[] {"0",
            "TCP port of a Prometheus endpoint (GET /metrics) with this daemon's counters, buffers and recovery "
                + "latency (0 = none)"});
        k.put("metrics-address", new String[] {MetricsBind.DEFAULT_ADDRESS,
            "IP address the metrics endpoint listens on: it has no authentication, so keep it on loopback or a "
                + "management network"});
        return k;
    }

    /** Settings from a properties file (may be null) overlaid with flags (key -> text, absent = not given). */
    public static DaemonConfig resolve(Properties file, String fileName, Map<String, String> flags) {
        DaemonSettings s = new DaemonSettings(fileName == null ? "flags" : fileName);
        if (file != null) {
            for (String key : file.stringPropertyNames()) {
                if (!KEYS.containsKey(key)) {
                    throw new IllegalArgumentException("unknown key '" + key + "' in " + fileName
                            + "; known keys: " + String.join(", ", KEYS.keySet()));
                }
                s.values.put(key, file.getProperty(key).trim());
            }
        }
        flags.forEach((key, value) -> {
            if (value != null) {
                s.values.put(key, value.trim());
            }
        });
        return s.build();
    }

    private DaemonConfig build() {
        Authentication auth = authentication();
        RicochetConfig engine = RicochetConfig.builder()
                .r(integer("r")).c(number("c")).stagger(integer("stagger")).nakEnabled(onOff("nak"))
                .nakTimeoutNs(millis("nak-timeout-ms")).nakRetryNs(millis("nak-retry-ms"))
                .nakMaxAttempts(integer("nak-max-attempts")).nakRateLimit(integer("nak-rate-limit"))
                .fountainBackup(onOff("fountain-backup"))
                .tuning(onOff("rate-of-fire-tuning") ? parse("rate-of-fire-range", TuningSettings::parse)
                        : TuningSettings.OFF)
                .sessionDelayNs(millis("session-delay-ms")).stabilityIntervalNs(millis("stability-interval-ms"))
                .stabilityEvery(integer("stability-every")).sendWindow(integer("send-window"))
                .maxPayload(integer("payload")).dataCacheCapacity(integer("data-cache"))
                .retransmitCapacity(integer("retransmit-buffer")).repairBufferCapacity(integer("repair-buffer"))
                .maxFrameLength(DaemonConfig.maxFrameLength(mtu(), auth))
                .build();
        ProtocolChoice protocol = parse("protocol", ProtocolChoice::parse);
        if (engine.fountainBackup() && protocol != ProtocolChoice.RICOCHET) {
            throw new IllegalArgumentException("fountain-backup = on: applies to protocol ricochet only, not "
                    + protocol.cliName());
        }
        if (protocol == ProtocolChoice.RICOCHET) {
            // Authenticated repairs carry each packet's seal, so the largest payload that fits is smaller.
            RicochetConfig.requireRepairFits(engine.r(), engine.maxPayload(), auth.newOriginSeals().length(),
                    engine.maxFrameLength());
        }
        return new DaemonConfig(integer("node-id"), text("interface"), address("address"), integer("unicast-port"),
                api(), parse("gms", v -> GmsAddresses.parse(v, DaemonSettings::endpoint)), engine,
                integer("rx-buffer"),
                integer("socket-rcvbuf"), parse("inject-loss", LossSpec::parse), parse("loss-scope",
                LossScope::parse), (long) integer("seed"), integer("stats-interval"),
                parse("transport", t -> DaemonConfig.Transport.valueOf(t.toUpperCase(Locale.ROOT))),
                onOff("receive-thread"), onOff("gso"), onOff("gro"), integer("multicast-ttl"), protocol,
                integer("heartbeat-port"), integer("heartbeat-stall-ms"), integer("send-queue"),
                integer("send-rate-limit"), bundleBytes(engine), integer("bundle-linger-us"), auth, tls(), mtu(),
                integer("rack"), metrics(),
                integer("max-groups"), new ProtocolTuning(null, parse("qsm-token-interval-ms",
                v -> QsmConfig.tokenIntervalNsOfMs(Double.parseDouble(v))), qsmPartitionSize(),
                qsmRegenerationFloorNs()), failureDetectors(), new MessageLimits(integer("max-message"),
                integer("send-queue-bytes"), integer("reassembly-buffer"), integer("fifo-buffer")));
    }

    /** The detectors listed in failure-detectors; empty (the default) is none. */
    private DetectorAddresses failureDetectors() {
        String text = values.getOrDefault("failure-detectors", "");
        try {
            return DetectorAddresses.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("failure-detectors = " + text + ": " + e.getMessage() + "; expected "
                    + DetectorAddresses.SYNTAX + " (" + origin + ")");
        }
    }

    private long qsmRegenerationFloorNs() {
        return parse("qsm-regeneration-floor-ms", v -> {
            long ms = Long.parseLong(v);
            if (ms < 0 || ms > QsmConfig.MAX_REGENERATION_FLOOR_MS) {
                throw new IllegalArgumentException("must be in 0.." + QsmConfig.MAX_REGENERATION_FLOOR_MS + " ms");
            }
            return ms * 1_000_000L;
        });
    }

    private int qsmPartitionSize() {
        return parse("qsm-partition-size", v -> {
            int size = Integer.parseInt(v);
            if (size < QsmConfig.MIN_PARTITION_SIZE || size > QsmConfig.MAX_PARTITION_SIZE) {
                throw new IllegalArgumentException("must be in " + QsmConfig.MIN_PARTITION_SIZE + ".."
                        + QsmConfig.MAX_PARTITION_SIZE + " members");
            }
            return size;
        });
    }

    /** Where the metrics endpoint listens; MetricsBind's rule for a value is reported under its key. */
    private MetricsBind metrics() {
        int port = integer("metrics-port");
        String address = text("metrics-address");
        try {
            return MetricsBind.parse(address, port, "metrics-address", "metrics-port");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (" + origin + ")");
        }
    }

    /** The mtu, checked before the engine's frame limit is derived from it. */
    private int mtu() {
        int mtu = integer("mtu");
        if (mtu < HeaderFlyweight.MIN_MTU || mtu > HeaderFlyweight.MAX_MTU) {
            throw new IllegalArgumentException("mtu = " + mtu + ": must be in " + HeaderFlyweight.MIN_MTU + ".."
                    + HeaderFlyweight.MAX_MTU + " bytes (1500 on Ethernet, 9000 with jumbo frames, up to 65535 on "
                    + "loopback)");
        }
        return mtu;
    }

    /** The bundle size: 'payload' is the engine's payload; DaemonConfig checks the range. */
    private int bundleBytes(RicochetConfig engine) {
        return text("bundle-bytes").equals("payload") ? engine.maxPayload() : integer("bundle-bytes");
    }

    private long maxClockSkewMs() {
        int skewMs = integer("max-clock-skew-ms");
        if (skewMs < 100) {
            throw new IllegalArgumentException("max-clock-skew-ms = " + skewMs + ": must be at least 100 ("
                    + origin + ")");
        }
        return skewMs;
    }

    /** The key file or insecure mode; a missing or bad key file is reported under its key. */
    private Authentication authentication() {
        String file = values.getOrDefault("key-file", "");
        long skewMs = maxClockSkewMs();
        Authentication auth = reported(() -> Authentication.from(file.isEmpty() ? null : java.nio.file.Path.of(file),
                onOff("insecure"), skewMs, "--key-file", "--insecure on"), e -> "key-file: " + e.getMessage());
        if (!onOff("encrypt")) {
            return auth;
        }
        if (!auth.enabled()) {
            throw new IllegalArgumentException("encrypt = on needs a key-file: insecure mode cannot encrypt ("
                    + origin + ")");
        }
        return auth.encrypted();
    }

    /** The certificate, key and CA of the links to the GMS, or insecure mode; a bad file is reported under its key. */
    private TlsSettings tls() {
        return reported(() -> TlsSettings.from(path("tls-cert"), path("tls-key"), path("tls-ca"), onOff("insecure"),
                "", "insecure = on").requireSelf(PeerIdentity.Role.DAEMON, PeerIdentity.nodeName(integer("node-id")),
                "tls-cert " + values.get("tls-cert")), IllegalArgumentException::getMessage);
    }

    private java.nio.file.Path path(String key) {
        String file = values.getOrDefault(key, "");
        return file.isEmpty() ? null : java.nio.file.Path.of(file);
    }

    /** The local API's settings; ApiConfig's own rule for a value is reported under the key that set it. */
    private ApiConfig api() {
        int queue = integer("api-queue-bytes");
        if (queue < 16_384) {
            throw new IllegalArgumentException("api-queue-bytes = " + queue + ": must be at least 16384");
        }
        ApiConfig api = ApiConfig.defaults().withWriteBufferWaterMarks(queue / 2, queue);
        api = apiValue("api-bind", api, a -> a.withBindAddress(address("api-bind").getHostAddress()));
        api = apiValue("api-port", api, a -> a.withPort(integer("api-port")));
        api = apiValue("api-max-connections", api, a -> a.withMaxConnections(integer("api-max-connections")));
        api = apiValue("api-hello-timeout-ms", api,
                a -> a.withHelloTimeout(Duration.ofNanos(millis("api-hello-timeout-ms"))));
        api = apiValue("api-partial-frame-timeout-ms", api,
                a -> a.withPartialFrameTimeout(Duration.ofNanos(millis("api-partial-frame-timeout-ms"))));
        api = apiValue("api-max-requests-in-flight", api,
                a -> a.withMaxRequestsInFlight(integer("api-max-requests-in-flight")));
        // Unset, the per-connection limit follows a lower max-groups down, so that setting max-groups alone is valid.
        int perConnection = values.containsKey("api-max-groups-per-connection")
                ? integer("api-max-groups-per-connection")
                : Math.min(integer("api-max-groups-per-connection"), Math.max(1, integer("max-groups")));
        api = apiValue("api-max-groups-per-connection", api, a -> a.withMaxGroupsPerConnection(perConnection));
        String socket = values.getOrDefault("api-unix-socket", "");
        if (!socket.isEmpty()) {
            api = apiValue("api-unix-socket", api, a -> a.withUnixSocket(java.nio.file.Path.of(socket)));
            api = apiValue("api-unix-socket-mode", api, a -> a.withUnixSocketMode(text("api-unix-socket-mode")));
            String group = values.getOrDefault("api-unix-socket-group", "");
            if (!group.isEmpty()) {
                api = apiValue("api-unix-socket-group", api, a -> a.withUnixSocketGroup(group));
            }
        }
        // TCP last: turning it off is valid only once the Unix socket is set.
        ApiAccess access = api.access();
        access = accessValue("api-max-connections-per-uid", access,
                a -> a.withMaxConnectionsPerPrincipal(integer("api-max-connections-per-uid")));
        access = accessValue("api-max-groups-per-uid", access,
                a -> a.withMaxGroupsPerPrincipal(integer("api-max-groups-per-uid")));
        access = accessValue("api-max-sends-per-second-per-uid", access,
                a -> a.withMaxSendsPerSecondPerPrincipal(integer("api-max-sends-per-second-per-uid")));
        String allowList = values.getOrDefault("api-group-access", "");
        access = accessValue("api-group-access", access, a -> a.withGroupAccess(GroupAccess.parse(allowList)));
        boolean tcp = onOff("api-tcp");
        ApiAccess withTcp = access.withTcp(tcp);
        return apiValue("api-tcp", api, a -> a.withAccess(withTcp));
    }

    private ApiAccess accessValue(String key, ApiAccess access, java.util.function.UnaryOperator<ApiAccess> set) {
        return checked(key, () -> set.apply(access));
    }

    private ApiConfig apiValue(String key, ApiConfig api, java.util.function.UnaryOperator<ApiConfig> set) {
        return checked(key, () -> set.apply(api));
    }

    /** {@code value}, whose IllegalArgumentException is reported under {@code key} with the value it has. */
    private <T> T checked(String key, java.util.function.Supplier<T> value) {
        return reported(value, e -> key + " = " + values.getOrDefault(key, KEYS.get(key)[0]) + ": " + message(e));
    }

    /**
     * {@code value}; its IllegalArgumentException is reported as {@code report} words it, followed by where the
     * settings came from, unless it is a {@link BadValue} of a key read on the way, reported as it is.
     */
    private <T> T reported(java.util.function.Supplier<T> value, Function<IllegalArgumentException, String> report) {
        try {
            return value.get();
        } catch (BadValue e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(report.apply(e) + " (" + origin + ")", e);
        }
    }

    /**
     * A key's value that is wrong or missing, its message complete (the key, the value, what is accepted, where it
     * came from): a check that reads the key on its way to another's reports it as it is, not under its own key.
     */
    private static final class BadValue extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadValue(String message) {
            super(message);
        }
    }

    private String text(String key) {
        String value = values.getOrDefault(key, KEYS.get(key)[0]);
        if (value == null || value.isEmpty()) {
            throw new BadValue(key + " is required: set it with --" + key + " or in the config file");
        }
        return value;
    }

    private <T> T parse(String key, Function<String, T> parser) {
        String value = text(key);
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new BadValue(key + " = " + value + ": " + message(e) + " (" + origin + ")");
        }
    }

    private static String message(IllegalArgumentException e) {
        return e instanceof NumberFormatException ? "not a number" : e.getMessage();
    }

    private int integer(String key) {
        return parse(key, Integer::parseInt);
    }

    private double number(String key) {
        return parse(key, Double::parseDouble);
    }

    private long millis(String key) {
        return parse(key, v -> {
            double ms = Double.parseDouble(v);
            if (!(ms >= 0 && ms <= 3_600_000)) {
                throw new IllegalArgumentException("must be milliseconds in [0, 3600000]");
            }
            return (long) (ms * MS);
        });
    }

    private boolean onOff(String key) {
        return parse(key, v -> {
            if (!v.equals("on") && !v.equals("off")) {
                throw new IllegalArgumentException("must be on or off");
            }
            return v.equals("on");
        });
    }

    private InetAddress address(String key) {
        return parse(key, v -> {
            try {
                return InetAddress.getByName(v);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an address");
            }
        });
    }

    /** Parses {@code host:port}. */
    public static InetSocketAddress endpoint(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no numeric port");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " in '" + text + "' is not in 1..65535");
        }
        return new InetSocketAddress(text.substring(0, colon), port);
    }
}
