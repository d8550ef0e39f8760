package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.ClusterKeys;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.DaemonSettings;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample config operators install (scripts/systemd/ricochetd.properties) stays complete and loadable. */
class DaemonConfigSampleTest {
    private static final Path SAMPLE = Path.of("..", "scripts", "systemd", "ricochetd.properties");

    @Test
    void shouldListEveryKeyTheDaemonAcceptsWithItsDefault() throws Exception {
        List<String> lines = Files.readAllLines(SAMPLE);

        DaemonSettings.KEYS.forEach((key, setting) -> {
            boolean set = lines.stream().anyMatch(l -> l.startsWith(key + "="));
            String listed = "#" + key + "=" + setting.defaultText();
            boolean commentedDefault = lines.contains(listed);
            assertTrue(set || commentedDefault, key + " is neither set nor listed as '" + listed + "'");
        });
    }

    @TempDir
    Path dir;

    /** Node 1's certificate, key and CA where the sample's /etc/ricochet/tls files would be on a host. */
    private Map<String, String> files() throws Exception {
        Path certs = dir.resolve("tls");
        if (!Files.exists(certs.resolve("node-1.pem"))) {
            io.ricochet.control.tls.TestCertificates.make(certs, "daemon:node-1");
        }
        return Map.of("key-file", key(), "tls-cert", certs.resolve("node-1.pem").toString(),
                "tls-key", certs.resolve("node-1.key").toString(), "tls-ca", certs.resolve("ca.pem").toString());
    }

    /** A key file where the sample's /etc/ricochet/cluster.key would be on a host. */
    private String key() throws java.io.IOException {
        Path key = dir.resolve("cluster.key");
        if (!Files.exists(key)) {
            ClusterKeys.generate(new java.security.SecureRandom(), 1).write(key);
        }
        return key.toString();
    }

    @Test
    void shouldLoadAsItIs() throws Exception {
        Properties file = new Properties();
        try (Reader reader = Files.newBufferedReader(SAMPLE)) {
            file.load(reader);
        }

        DaemonConfig config = DaemonSettings.resolve(file, SAMPLE.toString(), files());

        assertEquals(1, config.nodeId());
        assertTrue(config.auth().enabled(), "the sample runs authenticated");
        assertTrue(config.tls().enabled(), "with TLS on the links to the GMS");
        assertEquals("eth1", config.iface());
        assertEquals(2, config.gms().size());
        assertEquals(List.of(3, 3), config.gms().stream().map(List::size).toList(), "3 replicas each");
    }

    @Test
    void shouldLoadWithEveryCommentedDefaultUncommented() throws Exception {
        String text = Files.readString(SAMPLE).replaceAll("(?m)^#([a-z-]+=)", "$1");
        Properties file = new Properties();
        file.load(new StringReader(text));

        DaemonConfig config = DaemonSettings.resolve(file, SAMPLE.toString(), files());

        assertEquals(DaemonSettings.KEYS.size(), file.size());
        assertEquals(7300, config.unicastPort());
    }
}
