package io.ricochet.bench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.ClusterKeys;
import io.ricochet.cli.CliRun;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.tls.TestCertificates;
import io.ricochet.gms.GmsCounter;
import io.ricochet.gms.GmsServer;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon whose key file is not the cluster's, end to end: a real GMS partition pinned to the cluster key's
 * fingerprint ({@code --key-fingerprint}) refuses its REGISTER (KEY_MISMATCH), and {@code ricochet daemon}, run as its
 * {@code main} runs it, exits 1 with one line of standard error that names the key file, having stopped the daemon.
 */
@Timeout(60)
class DaemonKeyMismatchTest {
    @TempDir
    Path dir;

    @Test
    void shouldExitWithOneLineNamingItsKeyFileWhenTheGmsRefusesItsKey() throws Exception {
        Path certs = TestCertificates.make(dir.resolve("tls"), "gms:gms-p0", "daemon:node-1");
        SecureRandom random = new SecureRandom();
        ClusterKeys cluster = ClusterKeys.generate(random, 1);
        Path keyFile = dir.resolve("other-cluster.keys");
        ClusterKeys.generate(random, 1).write(keyFile);   // the same key id, another key

        try (GmsServer gms = new GmsServer(LoopbackDaemon.gmsConfig(TestCertificates.settings(certs, "gms-p0"))
                .withKeyFingerprints(List.of(new KeyFingerprint(1, cluster.fingerprint(1)))))) {
            Map<String, String> flags = LoopbackDaemon.daemonFlags(1, gms.start());
            flags.remove("insecure");
            flags.put("key-file", keyFile.toString());
            flags.put("tls-cert", certs.resolve("node-1.pem").toString());
            flags.put("tls-key", certs.resolve("node-1.key").toString());
            flags.put("tls-ca", certs.resolve("ca.pem").toString());

            CliRun run = CliRun.of(args(flags));

            assertEquals(1, run.exitCode(), run.err());
            assertTrue(run.out().contains("ricochet daemon: node 1 running"), "it started; the GMS refused it: "
                    + run.out());
            List<String> lines = run.err().lines().toList();
            assertEquals(1, lines.size(), "one line: " + run.err());
            String line = lines.get(0);
            assertTrue(line.startsWith("ricochet daemon: node 1: the key in key file " + keyFile
                    + " differs from the cluster's; copy the cluster's key file to this host and restart"), line);
            assertTrue(line.contains("(GMS: node 1 refused: its key 1 (fingerprint "), line);
            assertEquals(1, gms.counter(GmsCounter.KEY_REFUSALS));
            // The command stopped the daemon before returning: its heartbeat port is free again.
            int heartbeatPort = Integer.parseInt(flags.get("heartbeat-port"));
            try (DatagramSocket again = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"),
                    heartbeatPort))) {
                assertEquals(heartbeatPort, again.getLocalPort());
            }
        }
    }

    /** {@code daemon --key=value ...}. */
    private static String[] args(Map<String, String> flags) {
        String[] args = new String[flags.size() + 1];
        args[0] = "daemon";
        int i = 1;
        for (Map.Entry<String, String> flag : flags.entrySet()) {
            args[i++] = "--" + flag.getKey() + "=" + flag.getValue();
        }
        return args;
    }
}
