package io.ricochet.control.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates for tests, made by the project's one CA script, {@code scripts/certs}, and a TLS client built from them
 * (shared with the other modules' tests through ricochet-core's test-jar).
 */
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

    /** A TLS 1.3 socket connected to {@code server}, with {@code name}'s certificate, trusting {@code dir}'s CA. */
    public static SSLSocket socket(Path dir, String name, InetSocketAddress server) throws IOException {
        return socket(dir, name, dir, server);
    }

    /**
     * A TLS 1.3 socket connected to {@code server} with {@code certDir/name.pem} and its key, trusting the CA
     * {@code trustDir/ca.pem}; built with the JDK alone, so a test's forger shares no code with what it attacks.
     */
    public static SSLSocket socket(Path certDir, String name, Path trustDir, InetSocketAddress server)
            throws IOException {
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            Certificate ca;
            Certificate cert;
            try (InputStream in = Files.newInputStream(trustDir.resolve("ca.pem"))) {
                ca = x509.generateCertificate(in);
            }
            try (InputStream in = Files.newInputStream(certDir.resolve(name + ".pem"))) {
                cert = x509.generateCertificate(in);
            }
            String body = Files.readString(certDir.resolve(name + ".key")).replaceAll("-----[A-Z ]+-----", "")
                    .replaceAll("\\s", "");
            PrivateKey key = KeyFactory.getInstance("EC")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("me", key, new char[0], new Certificate[] {cert});
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(server.getAddress(),
                    server.getPort());
            socket.setEnabledProtocols(new String[] {"TLSv1.3"});
            return socket;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up a test TLS client for " + name + ": " + e.getMessage(), e);
        }
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
