package io.ricochet.control.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Certificates for tests, made by the project's one CA script, {@code scripts/certs}. */
public final class TestCertificates {
    private TestCertificates() {
    }

    /**
     * Runs {@code scripts/certs dir specs...}: a CA in {@code dir} (made, or reused if there is one) and one
     * certificate per {@code ROLE:NAME} spec, as {@code dir/NAME.pem} and {@code dir/NAME.key}.
     */
    public static Path make(Path dir, String... specs) throws IOException, InterruptedException {
        // Options (--expired) and specs may come in any order after the folder.
        List<String> command = new ArrayList<>(List.of(script().toString(), dir.toString()));
        command.addAll(List.of(specs));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("scripts/certs failed: " + out);
        }
        return dir;
    }

    /** The settings of the process whose certificate is {@code dir/name.pem}. */
    public static TlsSettings settings(Path dir, String name) {
        return TlsSettings.from(dir.resolve(name + ".pem"), dir.resolve(name + ".key"), dir.resolve("ca.pem"), false,
                "--", "--insecure");
    }

    private static Path script() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts").resolve("certs");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new IllegalStateException("scripts/certs not found above " + Path.of("").toAbsolutePath());
    }
}
