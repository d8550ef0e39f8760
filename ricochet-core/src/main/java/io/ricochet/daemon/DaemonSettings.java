package io.ricochet.daemon;

import io.ricochet.api.server.ApiAccess;
import io.ricochet.api.server.ApiConfig;
import io.ricochet.api.server.GroupAccess;
import io.ricochet.auth.Authentication;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.metrics.MetricsBind;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.protocols.ProtocolTuning;
import io.ricochet.qsm.QsmConfig;

import io.ricochet.setting.Setting;
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
    /** Every key by its name, in order: the declarations of {@link DaemonKeys}. */
    public static final Map<String, Setting> KEYS = DaemonKeys.BY_NAME;

    private static final long MS = 1_000_000L;

    private final Map<String, String> values = new LinkedHashMap<>();
    private final String origin;

    private DaemonSettings(String origin) {
        this.origin = origin;
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
                .tuning(onOff("rate-of-fire-tuning") ? tuning() : TuningSettings.OFF)
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
            if (!QsmConfig.REGENERATION_FLOOR.allows(ms)) {
                throw new IllegalArgumentException("must be in " + QsmConfig.REGENERATION_FLOOR.rangeText() + " ms");
            }
            return ms * 1_000_000L;
        });
    }

    private int qsmPartitionSize() {
        return parse("qsm-partition-size", v -> {
            int size = Integer.parseInt(v);
            if (!QsmConfig.PARTITION_SIZE.allows(size)) {
                throw new IllegalArgumentException("must be in " + QsmConfig.PARTITION_SIZE.rangeText() + " members");
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
        if (!DaemonKeys.MTU.allows(mtu)) {
            throw new IllegalArgumentException("mtu = " + mtu + ": must be in " + DaemonKeys.MTU.rangeText()
                    + " bytes (1500 on Ethernet, 9000 with jumbo frames, up to 65535 on loopback)");
        }
        return mtu;
    }

    /** The bundle size: 'payload' is the engine's payload; DaemonConfig checks the range. */
    private int bundleBytes(RicochetConfig engine) {
        return text("bundle-bytes").equals("payload") ? engine.maxPayload() : integer("bundle-bytes");
    }

    private long maxClockSkewMs() {
        int skewMs = integer("max-clock-skew-ms");
        if (!DaemonKeys.MAX_CLOCK_SKEW.allows(skewMs)) {
            throw new IllegalArgumentException("max-clock-skew-ms = " + skewMs + ": must be "
                    + DaemonKeys.MAX_CLOCK_SKEW.rangeText() + " (" + origin + ")");
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
        if (!DaemonKeys.API_QUEUE_BYTES.allows(queue)) {
            throw new IllegalArgumentException("api-queue-bytes = " + queue + ": must be "
                    + DaemonKeys.API_QUEUE_BYTES.rangeText());
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
        return reported(value, e -> key + " = " + values.getOrDefault(key, KEYS.get(key).defaultText()) + ": "
                + message(e));
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
        String value = values.getOrDefault(key, KEYS.get(key).defaultText());
        if (value == null || value.isEmpty()) {
            throw new BadValue(key + " is required: set it with --" + key + " or in the config file");
        }
        return value;
    }

    /** With rate-of-fire-tuning on: the c range, then the r range. */
    private TuningSettings tuning() {
        TuningSettings c = parse("rate-of-fire-range", TuningSettings::parse);
        return parse("rate-of-fire-r-range", c::withRRange);
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
