package io.ricochet.daemon;

import io.ricochet.control.verdict.DetectorAddresses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.link.GmsAddresses;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Daemon settings: file then flags, defaults, and one clear message per bad value naming its key. */
class DaemonSettingsTest {
    /** Flags, on top of insecure mode (authentication is tested in its own tests below). */
    private static Map<String, String> flags(String... pairs) {
        Map<String, String> m = new HashMap<>();
        m.put("insecure", "on");
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void shouldTakeDefaultsThenTheFileThenFlags() {
        Properties file = new Properties();
        file.setProperty("node-id", "3");
        file.setProperty("c", "4");
        file.setProperty("gms", "10.0.0.1:7100, 10.0.0.2:7101");
        DaemonConfig config = DaemonSettings.resolve(file, "node.properties", flags("c", "2", "nak", "off"));
        assertEquals(3, config.nodeId());
        assertEquals(2.0, config.engine().defaultC());
        assertEquals(false, config.engine().nakSettings().nakEnabled());
        assertEquals(2, config.gms().size());
        assertEquals(8, config.engine().r());
        assertEquals(1, config.multicastTtl());
    }

    @Test
    void shouldReadTheReplicasOfEveryGmsPartition() {
        DaemonConfig config = DaemonSettings.resolve(null, null, flags("node-id", "1", "gms",
                "127.0.0.1:7100/127.0.0.1:7110/127.0.0.1:7120, 127.0.0.1:7101/127.0.0.1:7111/127.0.0.1:7121"));
        assertEquals(List.of(
                List.of(endpoint(7100), endpoint(7110), endpoint(7120)),
                List.of(endpoint(7101), endpoint(7111), endpoint(7121))), config.gms());
    }

    @Test
    void shouldSayHowToWriteTheGmsReplicas() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(null,
                null, flags("node-id", "1", "gms", "127.0.0.1:7100//127.0.0.1:7110")));
        assertEquals("gms = 127.0.0.1:7100//127.0.0.1:7110: partition 0 ('127.0.0.1:7100//127.0.0.1:7110') has an "
                + "empty replica (two '/' in a row, or one at an end): " + GmsAddresses.SYNTAX + " (flags)",
                e.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(
                null, null, flags("node-id", "1", "gms", "127.0.0.1:7100/127.0.0.1:7110,127.0.0.1:7110")));
        assertTrue(twice.getMessage().startsWith("gms = 127.0.0.1:7100/127.0.0.1:7110,127.0.0.1:7110: "
                + "127.0.0.1:7110 is listed twice (in partitions 0 and 1)"), twice.getMessage());
    }

    private static InetSocketAddress endpoint(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    @Test
    void shouldNameTheKeyOfEveryBadValue() {
        String[][] cases = {
            {"node-id", "x"}, {"unicast-port", "70000"}, {"gms", "nohost"}, {"gms", "127.0.0.1:7100,"},
            {"gms", "127.0.0.1:7100/"}, {"gms", ""}, {"nak", "maybe"},
            {"inject-loss", "foo"}, {"multicast-ttl", "5"}, {"r", "0"}, {"transport", "carrier-pigeon"},
            {"nak-timeout-ms", "-1"}, {"address", "::1"}, {"bundle-bytes", "4"}, {"bundle-bytes", "1025"},
            {"bundle-bytes", "-1"}, {"bundle-bytes", "full"}, {"bundle-linger-us", "1001"}, {"bundle-linger-us", "-1"},
            {"mtu", "575"}, {"mtu", "65536"}, {"mtu", "jumbo"}, {"payload", "1500"},
        };
        for (String[] c : cases) {
            Map<String, String> f = flags("node-id", "1");
            f.put(c[0], c[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DaemonSettings.resolve(null, null, f), c[0]);
            assertTrue(e.getMessage().startsWith(c[0]), c[0] + ": " + e.getMessage());
        }
    }

    @Test
    void theMtuBoundsEveryDatagramAndItsBuffers() {
        DaemonConfig standard = DaemonSettings.resolve(null, null, flags("node-id", "1"));
        assertEquals(1500, standard.mtu());
        assertEquals(1472, standard.engine().maxFrameLength(), "one 1500-byte packet less IP and UDP headers");
        assertEquals(1472, standard.maxDatagramLength());

        DaemonConfig jumbo = DaemonSettings.resolve(null, null,
                flags("node-id", "1", "mtu", "9000", "payload", "8000", "rx-buffer", "1024"));
        assertEquals(8972, jumbo.engine().maxFrameLength());
        assertEquals(8000, jumbo.bundleBytes(), "bundles fill the larger payload");
        assertEquals(2L * 1025 * 8972 + 4096L * 8972 + (65536L + 512) * 8000, jumbo.bufferBytes(),
                "two rings of 1024 (and one spare slot each), read by the engine's thread; the data cache of "
                        + "datagrams");
        DaemonConfig handoff = DaemonSettings.resolve(null, null, flags("node-id", "1", "mtu", "9000", "payload",
                "8000", "rx-buffer", "1024", "receive-thread", "on"));
        assertEquals(2L * 2 * 513 * 8972 + 4096L * 8972 + (65536L + 512) * 8000, handoff.bufferBytes(),
                "two halves of two rings of 512 (and one spare slot each), with the receive thread");

        IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags("node-id", "1", "mtu", "9000", "payload", "9000")));
        assertTrue(tooLarge.getMessage().startsWith("payload = 9000: must be in 1.."), tooLarge.getMessage());
        assertTrue(tooLarge.getMessage().contains("mtu"), "says which setting to raise: " + tooLarge.getMessage());
    }

    @Test
    void anMtuLargerThanTheInterfacesIsRefusedSayingHowToFixIt() {
        DaemonConfig jumbo = DaemonSettings.resolve(null, null,
                flags("node-id", "1", "interface", "v0", "mtu", "9000"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DaemonTransport.requireCarries(1500, jumbo));
        assertEquals("mtu = 9000: interface v0 carries packets of at most 1500 bytes; lower mtu to at most 1500 or "
                + "raise the interface's MTU (ip link set dev v0 mtu 9000)", e.getMessage());
        DaemonTransport.requireCarries(9000, jumbo);
    }

    @Test
    void anAuthenticatedDatagramKeepsRoomForItsTrailerUnderTheMtu(@org.junit.jupiter.api.io.TempDir
                                                                   java.nio.file.Path dir) throws Exception {
        java.nio.file.Path key = dir.resolve("cluster.key");
        io.ricochet.auth.ClusterKeys.generate(new java.security.SecureRandom(), 1).write(key);
        java.nio.file.Path certs = io.ricochet.control.tls.TestCertificates.make(dir.resolve("tls"), "daemon:node-1");
        Map<String, String> f = flags("node-id", "1", "key-file", key.toString(), "tls-cert",
                certs.resolve("node-1.pem").toString(), "tls-key", certs.resolve("node-1.key").toString(), "tls-ca",
                certs.resolve("ca.pem").toString());
        f.remove("insecure");
        DaemonConfig config = DaemonSettings.resolve(null, null, f);
        assertEquals(1500 - 28, config.maxDatagramLength(), "the frame and its trailer fill one 1500-byte packet");
        assertEquals(1500 - 28 - io.ricochet.auth.DatagramAuth.TRAILER_LENGTH, config.engine().maxFrameLength());
    }

    @Test
    void buffersThatCouldOutgrowHalfTheHeapAreRefusedAtStart() {
        DaemonConfig huge = DaemonSettings.resolve(null, null, flags("node-id", "1", "mtu", "65535",
                "payload", "60000", "retransmit-buffer", Integer.toString(Integer.MAX_VALUE / 2)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Daemon.requireHeapFor(huge));
        assertTrue(e.getMessage().contains("do not fit in half the JVM heap") && e.getMessage().contains("-Xmx"),
                e.getMessage());
        Daemon.requireHeapFor(DaemonSettings.resolve(null, null, flags("node-id", "1")));
    }

    @Test
    void shouldBundleUpToTheEnginesPayloadWithoutLingerByDefault() {
        DaemonConfig defaults = DaemonSettings.resolve(null, null, flags("node-id", "1", "payload", "1200"));
        assertEquals(1200, defaults.bundleBytes(), "'payload': the engine's");
        assertEquals(0, defaults.bundleLingerUs());
        DaemonConfig set = DaemonSettings.resolve(null, null,
                flags("node-id", "1", "bundle-bytes", "0", "bundle-linger-us", "1000"));
        assertEquals(0, set.bundleBytes(), "off");
        assertEquals(1000, set.bundleLingerUs());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags("node-id", "1", "bundle-bytes", "2000")));
        assertEquals("bundle-bytes = 2000: must be 0 (no bundling) or in 5..1024 (the payload key): a datagram holds "
                + "at most the engine's payload", e.getMessage());
    }

    @Test
    void shouldReportProgressEvery128PacketsByDefault() {
        assertEquals(128, DaemonSettings.resolve(null, null, flags("node-id", "1")).engine().stabilityEvery());
        assertEquals(0, DaemonSettings.resolve(null, null, flags("node-id", "1", "stability-every", "0"))
                .engine().stabilityEvery(), "0: only every interval");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags("node-id", "1", "stability-every", "-1")));
        assertTrue(e.getMessage().contains("stability-every"), e.getMessage());
    }

    @Test
    void shouldTuneTheRateOfFireOnlyWhenAskedWithinTheRangeGiven() {
        assertEquals(io.ricochet.lec.tuning.TuningSettings.OFF,
                DaemonSettings.resolve(null, null, flags("node-id", "1")).engine().tuning(), "off by default");
        io.ricochet.lec.tuning.TuningSettings on = DaemonSettings.resolve(null, null, flags("node-id", "1",
                "rate-of-fire-tuning", "on", "rate-of-fire-range", "3..7")).engine().tuning();
        assertTrue(on.enabled());
        assertEquals(3, on.cMin());
        assertEquals(7, on.cMax());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(null,
                null, flags("node-id", "1", "rate-of-fire-tuning", "on", "rate-of-fire-range", "7..3")));
        assertTrue(e.getMessage().startsWith("rate-of-fire-range = 7..3"), e.getMessage());
        assertEquals(4, on.rMin(), "r tuned within 4..24 by default");
        assertEquals(24, on.rMax());
        io.ricochet.lec.tuning.TuningSettings pinned = DaemonSettings.resolve(null, null, flags("node-id", "1",
                "rate-of-fire-tuning", "on", "rate-of-fire-r-range", "8..8")).engine().tuning();
        assertEquals(8, pinned.rMin());
        assertEquals(8, pinned.rMax());
        for (String bad : new String[] {"9..8", "0..4", "4..x", "8"}) {
            IllegalArgumentException r = assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(
                    null, null, flags("node-id", "1", "rate-of-fire-tuning", "on", "rate-of-fire-r-range", bad)));
            assertTrue(r.getMessage().startsWith("rate-of-fire-r-range = " + bad + ": must be MIN..MAX"),
                    r.getMessage());
        }
    }

    @Test
    void shouldNameTheOnOffKeyWhoseValueIsNeither() {
        for (io.ricochet.setting.Setting key : DaemonSettings.KEYS.values()) {
            String value = key.defaultText();
            if ("on".equals(value) || "off".equals(value)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> DaemonSettings.resolve(null, null, flags("node-id", "1", key.name(), "yes")));
                assertEquals(key.name() + " = yes: must be on or off (flags)", e.getMessage());
            }
        }
        Properties file = new Properties();
        file.setProperty("insecure", "yes");
        IllegalArgumentException inFile = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(file, "node.properties", Map.of("node-id", "1")));
        assertEquals("insecure = yes: must be on or off (node.properties)", inFile.getMessage());
    }

    @Test
    void shouldRefuseUnknownKeysAndMissingRequiredOnes() {
        Properties file = new Properties();
        file.setProperty("colour", "blue");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(file, "x.properties", flags("node-id", "1")));
        assertTrue(unknown.getMessage().contains("unknown key 'colour' in x.properties"), unknown.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags()));
        assertTrue(missing.getMessage().startsWith("node-id is required"), missing.getMessage());
    }

    @Test
    void shouldRefuseToRunWithoutAKeyUnlessToldToRunInsecure() throws Exception {
        Map<String, String> noKey = flags("node-id", "1");
        noKey.remove("insecure");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, noKey));
        assertTrue(refused.getMessage().startsWith("key-file: no key file"), refused.getMessage());
        assertTrue(refused.getMessage().contains("ricochet keygen"), refused.getMessage());
        assertTrue(refused.getMessage().contains("with --key-file FILE")
                && refused.getMessage().endsWith("run unauthenticated on purpose with --insecure on (flags)"),
                "names the flags that fix it: " + refused.getMessage());
        assertEquals(false, DaemonSettings.resolve(null, null, flags("node-id", "1")).auth().enabled());

        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("keys");
        java.nio.file.Path key = dir.resolve("cluster.key");
        io.ricochet.auth.ClusterKeys.generate(new java.security.SecureRandom(), 4).write(key);
        java.nio.file.Path certs = io.ricochet.control.tls.TestCertificates.make(dir.resolve("tls"), "daemon:node-1");
        Map<String, String> withKey = flags("node-id", "1", "key-file", key.toString(), "tls-cert",
                certs.resolve("node-1.pem").toString(), "tls-key", certs.resolve("node-1.key").toString(), "tls-ca",
                certs.resolve("ca.pem").toString());
        withKey.remove("insecure");
        assertTrue(DaemonSettings.resolve(null, null, withKey).auth().enabled());
        assertEquals(false, DaemonSettings.resolve(null, null, withKey).auth().encrypts(), "encrypt is off by default");
        Map<String, String> encrypting = new HashMap<>(withKey);
        encrypting.put("encrypt", "on");
        assertTrue(DaemonSettings.resolve(null, null, encrypting).auth().encrypts());
        IllegalArgumentException clear = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags("node-id", "1", "encrypt", "on")));
        assertTrue(clear.getMessage().startsWith("encrypt = on needs a key-file"), clear.getMessage());
        java.nio.file.Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString(
                "rw-r--r--"));
        IllegalArgumentException open = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, withKey));
        assertTrue(open.getMessage().startsWith("key-file: ") && open.getMessage().contains("chmod 600"),
                open.getMessage());
        withKey.put("insecure", "on");
        assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(null, null, withKey),
                "a key file and insecure mode at once");
    }

    @Test
    void shouldRequireTlsFilesOfItsOwnNodeUnlessInsecure(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path key = dir.resolve("cluster.key");
        io.ricochet.auth.ClusterKeys.generate(new java.security.SecureRandom(), 1).write(key);
        java.nio.file.Path certs = io.ricochet.control.tls.TestCertificates.make(dir.resolve("tls"), "daemon:node-1",
                "daemon:node-2");
        Map<String, String> keyOnly = flags("node-id", "1", "key-file", key.toString());
        keyOnly.remove("insecure");
        assertRefused(keyOnly, "tls-cert: no certificate", "scripts/certs");
        Map<String, String> certOnly = new HashMap<>(keyOnly);
        certOnly.put("tls-cert", certs.resolve("node-1.pem").toString());
        assertRefused(certOnly, "tls-key: not given", "tls-ca");
        Map<String, String> otherNode = new HashMap<>(certOnly);
        otherNode.put("tls-cert", certs.resolve("node-2.pem").toString());
        otherNode.put("tls-key", certs.resolve("node-2.key").toString());
        otherNode.put("tls-ca", certs.resolve("ca.pem").toString());
        assertRefused(otherNode, "tls-cert " + certs.resolve("node-2.pem"), "is for daemon node-2");
        Map<String, String> own = new HashMap<>(otherNode);
        own.put("node-id", "2");
        DaemonConfig config = DaemonSettings.resolve(null, null, own);
        assertTrue(config.tls().enabled());
        assertTrue(config.authentication().startsWith("PMAC-AES-256,"), config.authentication());
        assertTrue(config.authentication().contains("control links TLS 1.3 as daemon node-2"), config.authentication());
        own.put("insecure", "on");
        own.remove("key-file");
        assertRefused(own, "tls-cert: TLS files and insecure = on were both given", "choose one");
        DaemonConfig insecure = DaemonSettings.resolve(null, null, flags("node-id", "1"));
        assertTrue(insecure.authentication().startsWith("OFF"), insecure.authentication());
    }

    private static void assertRefused(Map<String, String> flags, String start, String contains) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags));
        assertTrue(e.getMessage().startsWith(start) && e.getMessage().contains(contains), e.getMessage());
    }

    @Test
    void shouldSetTheApiUnixSocketFromItsKeys() {
        DaemonConfig none = DaemonSettings.resolve(null, null, flags("node-id", "1"));
        assertEquals(null, none.api().unixSocket(), "none by default: TCP on loopback only");
        DaemonConfig config = DaemonSettings.resolve(null, null, flags("node-id", "1", "api-unix-socket",
                "/run/ricochet/api.sock", "api-unix-socket-mode", "rw-rw----", "api-unix-socket-group", "ricochet"));
        assertEquals(java.nio.file.Path.of("/run/ricochet/api.sock"), config.api().unixSocket());
        assertEquals("rw-rw----", config.api().unixSocketMode());
        assertEquals("ricochet", config.api().unixSocketGroup());
        IllegalArgumentException relative = assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags("node-id", "1", "api-unix-socket", "api.sock")));
        assertTrue(relative.getMessage().startsWith("api-unix-socket = api.sock: "), relative.getMessage());
    }

    @Test
    void shouldListTheFailureDetectorsToAnswerByIdAndAddress() {
        assertTrue(DaemonSettings.resolve(null, null, flags("node-id", "1")).failureDetectors().isEmpty(),
                "none by default: each heartbeat answered at its source address");
        DetectorAddresses detectors = DaemonSettings.resolve(null, null, flags("node-id", "1", "failure-detectors",
                "rack-1@10.0.0.254:7200, standby-1@10.0.0.252:7200")).failureDetectors();
        assertEquals(new InetSocketAddress("10.0.0.254", 7200),
                detectors.address(io.ricochet.wire.HeartbeatFlyweight.detectorWireId("rack-1")));
        assertEquals(new InetSocketAddress("10.0.0.252", 7200),
                detectors.address(io.ricochet.wire.HeartbeatFlyweight.detectorWireId("standby-1")));
        assertEquals(null, detectors.address(io.ricochet.wire.HeartbeatFlyweight.detectorWireId("rack-2")));
        assertEquals("rack-1@10.0.0.254:7200,standby-1@10.0.0.252:7200", detectors.toString());
    }

    @Test
    void shouldSayWhatIsWrongWithTheFailureDetectors() {
        String[][] cases = {
            {"10.0.0.254:7200", "'10.0.0.254:7200' is not ID@HOST:PORT"},
            {"rack-1@10.0.0.254", "'rack-1@10.0.0.254' is not ID@HOST:PORT"},
            {"rack 1@10.0.0.254:7200", "detector id 'rack 1' must be 1 to 64 characters"},
            {"rack-1@10.0.0.254:0", "port '0' of detector rack-1 must be a number in 1..65535"},
            {"rack-1@[::1]:7200", "detector rack-1 at [::1]: must be an IPv4 address"},
            {"rack-1@10.0.0.254:7200,", "'' is not ID@HOST:PORT"},
            {"rack-1@10.0.0.254:7200,rack-1@10.0.0.253:7200", "detector rack-1 is listed twice"},
            {"a@10.0.0.254:7200,b@10.0.0.254:7200", "detectors a and b are both listed at 10.0.0.254:7200"},
            // "Aa" and "BB" have the same String.hashCode(), so their heartbeats could not be told apart.
            {"Aa@10.0.0.254:7200,BB@10.0.0.253:7200", "detectors Aa and BB have the same wire id 2112: rename one"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(
                    null, null, flags("node-id", "1", "failure-detectors", c[0])), c[0]);
            assertTrue(e.getMessage().startsWith("failure-detectors = " + c[0] + ": " + c[1]), e.getMessage());
            assertTrue(e.getMessage().endsWith("expected " + DetectorAddresses.SYNTAX + " (flags)"), e.getMessage());
        }
    }

    @Test
    void shouldLeaveTheMetricsEndpointOffUnlessAPortIsGivenAndBindLoopback() {
        DaemonConfig off = DaemonSettings.resolve(null, null, flags("node-id", "1"));
        assertEquals(false, off.metrics().enabled());
        DaemonConfig on = DaemonSettings.resolve(null, null, flags("node-id", "1", "metrics-port", "9400"));
        assertEquals("127.0.0.1:9400", on.metrics().describe());
        DaemonConfig management = DaemonSettings.resolve(null, null, flags("node-id", "1", "metrics-port", "9400",
                "metrics-address", "10.1.0.5"));
        assertEquals("10.1.0.5:9400", management.metrics().describe());
    }

    @Test
    void shouldNameTheMetricsKeyThatIsWrong() {
        assertEquals("metrics-port = 65536: must be in 1..65535, or 0 for no metrics endpoint (flags)",
                assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(null, null,
                        flags("node-id", "1", "metrics-port", "65536"))).getMessage());
        assertEquals("metrics-port = x: not a number (flags)", assertThrows(IllegalArgumentException.class,
                () -> DaemonSettings.resolve(null, null, flags("node-id", "1", "metrics-port", "x"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DaemonSettings.resolve(null, null,
                flags("node-id", "1", "metrics-port", "9400", "metrics-address", "metrics.example")))
                .getMessage().startsWith("metrics-address = metrics.example: not an IP address literal"));
    }

    @Test
    void shouldBoundTheNodesGroupsAndKeepTheConnectionLimitWithinIt() {
        DaemonConfig defaults = DaemonSettings.resolve(null, null, flags("node-id", "1"));
        assertEquals(DaemonConfig.DEFAULT_MAX_GROUPS, defaults.maxGroups());
        assertEquals(1024, defaults.api().maxGroupsPerConnection());

        DaemonConfig low = DaemonSettings.resolve(null, null, flags("node-id", "1", "max-groups", "100"));
        assertEquals(100, low.maxGroups());
        assertEquals(100, low.api().maxGroupsPerConnection(), "an unset connection limit follows max-groups down");

        DaemonConfig high = DaemonSettings.resolve(null, null, flags("node-id", "1", "max-groups", "65536",
                "api-max-groups-per-connection", "65536"));
        assertEquals(65_536, high.api().maxGroupsPerConnection());

        assertRefused(flags("node-id", "1", "max-groups", "100", "api-max-groups-per-connection", "200"),
                "api-max-groups-per-connection = 200: ", "must be at most max-groups (100)");
        assertRefused(flags("node-id", "1", "max-groups", "100000"), "max-groups = 100000: ", "must be in 1..65536");
        assertRefused(flags("node-id", "1", "max-groups", "0"), "max-groups = 0: ", "must be in 1..65536");
    }

    @Test
    void shouldTakeQsmsTokenIntervalAndPartitionSizeAndHandThemToTheEngines() {
        DaemonConfig defaults = DaemonSettings.resolve(null, null, flags("node-id", "1", "protocol", "qsm"));
        assertEquals(1_000_000L, defaults.tuning().qsmTokenIntervalNs());
        DaemonConfig slow = DaemonSettings.resolve(null, null, flags("node-id", "1", "protocol", "qsm",
                "qsm-token-interval-ms", "0.25"));
        assertEquals(250_000L, slow.tuning().qsmTokenIntervalNs());
        io.ricochet.engine.ProtocolFactory factory = slow.protocol().factory(slow.engine(), slow.engine().maxPayload(),
                slow.tuning());
        assertEquals(250_000L, ((io.ricochet.qsm.QsmProtocol) factory).config().tokenIntervalNs(),
                "the daemon's engines hold the token that long");

        assertRefused(flags("node-id", "1", "qsm-token-interval-ms", "0"), "qsm-token-interval-ms = 0: ",
                "must be milliseconds in [0.001, 10000], e.g. 1 (the default) or 0.5 (flags)");
        assertRefused(flags("node-id", "1", "qsm-token-interval-ms", "20000"), "qsm-token-interval-ms = 20000: ",
                "must be milliseconds in [0.001, 10000]");
        assertRefused(flags("node-id", "1", "qsm-token-interval-ms", "fast"), "qsm-token-interval-ms = fast: ",
                "not a number");

        assertEquals(5, defaults.tuning().qsmPartitionSize());
        DaemonConfig wide = DaemonSettings.resolve(null, null, flags("node-id", "1", "protocol", "qsm",
                "qsm-partition-size", "12"));
        assertEquals(12, ((io.ricochet.qsm.QsmProtocol) wide.protocol().factory(wide.engine(),
                wide.engine().maxPayload(), wide.tuning())).config().partitionSize());
        assertRefused(flags("node-id", "1", "qsm-partition-size", "1"), "qsm-partition-size = 1: ",
                "must be in 2..65536 members (flags)");
        assertRefused(flags("node-id", "1", "qsm-partition-size", "x"), "qsm-partition-size = x: ", "not a number");

        assertEquals(100_000_000L, ((io.ricochet.qsm.QsmProtocol) wide.protocol().factory(wide.engine(),
                wide.engine().maxPayload(), wide.tuning())).config().regenerationFloorNs(),
                "the daemon's default regeneration floor, 100 ms");
        DaemonConfig eager = DaemonSettings.resolve(null, null, flags("node-id", "1", "protocol", "qsm",
                "qsm-regeneration-floor-ms", "0"));
        assertEquals(0L, ((io.ricochet.qsm.QsmProtocol) eager.protocol().factory(eager.engine(),
                eager.engine().maxPayload(), eager.tuning())).config().regenerationFloorNs());
        assertRefused(flags("node-id", "1", "qsm-regeneration-floor-ms", "-1"), "qsm-regeneration-floor-ms = -1: ",
                "must be in 0..60000 ms (flags)");
        assertRefused(flags("node-id", "1", "qsm-regeneration-floor-ms", "soon"), "qsm-regeneration-floor-ms = soon: ",
                "not a number");
    }

    @Test
    void shouldSetWhoMayUseTheApiFromItsKeys() {
        DaemonConfig defaults = DaemonSettings.resolve(null, null, flags("node-id", "1"));
        assertTrue(defaults.api().access().tcp(), "TCP stays on by default");
        assertEquals(0, defaults.api().access().maxSendsPerSecondPerPrincipal());
        DaemonConfig locked = DaemonSettings.resolve(null, null, flags("node-id", "1", "api-tcp", "off",
                "api-unix-socket", "/run/ricochet/api.sock", "api-max-connections-per-uid", "4",
                "api-max-groups-per-uid", "100", "api-max-sends-per-second-per-uid", "1000",
                "api-group-access", "5:uid=1000,gid=2000;7:uid=0"));
        assertEquals(false, locked.api().access().tcp());
        assertEquals(4, locked.api().access().maxConnectionsPerPrincipal());
        assertEquals(100, locked.api().access().maxGroupsPerPrincipal());
        assertEquals(1000, locked.api().access().maxSendsPerSecondPerPrincipal());
        assertTrue(locked.api().access().groupAccess().restricts(7));

        assertRefused(flags("node-id", "1", "api-tcp", "off"), "api-tcp = off: ", "api-unix-socket");
        assertRefused(flags("node-id", "1", "api-tcp", "no"), "api-tcp", "on or off");
        assertRefused(flags("node-id", "1", "api-group-access", "5:user=1"), "api-group-access = 5:user=1: ",
                "neither uid=N nor gid=N");
        assertRefused(flags("node-id", "1", "api-max-connections-per-uid", "0"), "api-max-connections-per-uid = 0: ",
                "1..65536");
        assertRefused(flags("node-id", "1", "api-max-sends-per-second-per-uid", "-1"),
                "api-max-sends-per-second-per-uid = -1: ", "0 (unlimited)");
    }
}
