package io.ricochet.bench.compare;

import io.ricochet.auth.ClusterKeys;
import io.ricochet.control.tls.PeerIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a Ricochet cluster is shipped with, made once per run of the harness in one folder: the cluster key file
 * (what {@code ricochet keygen} writes, {@link ClusterKeys#generate}) and a CA of the run's own with a certificate per
 * process made by {@code scripts/certs} (the one place a CA is made; the system tests' {@code ProcessCluster} calls
 * it too): {@code gms:gms-p0} for the trial's GMS partition and {@code daemon:node-<id>} for every member. The daemons
 * then run with {@code key-file}, {@code tls-cert}, {@code tls-key} and {@code tls-ca} as a packaged node does, and the
 * GMS with TLS. JGroups' encrypting configuration takes its shared secret key from {@link JGroupsKeystore} in the
 * same folder.
 */
final class Credentials {
    /** The certificate name of the trial's GMS partition. */
    static final String GMS_NAME = "gms-p0";
    /** The key file's name in the folder. */
    static final String KEY_FILE = "cluster.key";

    private Credentials() {
    }

    /** Makes the key file and the certificates of the GMS and of members 1..{@code members} in {@code dir}. */
    static Path make(Path dir, int members) throws IOException {
        Files.createDirectories(dir);
        Path key = dir.resolve(KEY_FILE);
        Files.deleteIfExists(key);
        ClusterKeys.generate(new SecureRandom(), 1).write(key);
        List<String> command = new ArrayList<>(List.of(script("certs").toString(), dir.toString(),
                "gms:" + GMS_NAME));
        for (int id = 1; id <= members; id++) {
            command.add("daemon:" + PeerIdentity.nodeName(id));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("scripts/certs failed (it needs openssl): " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted making certificates", e);
        }
        JGroupsKeystore.write(dir);
        return dir.toAbsolutePath();
    }

    /** The key file in {@code dir}. */
    static Path keyFile(String dir) {
        return Path.of(dir, KEY_FILE);
    }

    /** The certificate of {@code name} in {@code dir}. */
    static Path cert(String dir, String name) {
        return Path.of(dir, name + ".pem");
    }

    /** The private key of {@code name}'s certificate in {@code dir}. */
    static Path key(String dir, String name) {
        return Path.of(dir, name + ".key");
    }

    /** The CA's certificate in {@code dir}. */
    static Path ca(String dir) {
        return Path.of(dir, "ca.pem");
    }

    /** {@code scripts/NAME}, found above the working directory or from {@code RICOCHET_HOME}. */
    static Path script(String name) {
        String home = System.getenv("RICOCHET_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "scripts", name))) {
            return Path.of(home, "scripts", name);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts").resolve(name);
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new IllegalStateException("scripts/" + name + " not found above " + Path.of("").toAbsolutePath()
                + " (run from the repository, or set RICOCHET_HOME to it)");
    }
}
