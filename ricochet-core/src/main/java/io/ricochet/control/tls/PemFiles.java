package io.ricochet.control.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * Reads certificates and private keys from PEM files. Every problem is an {@link IOException} whose message says,
 * in one line, what is wrong with the file and how to fix it; it never names key material.
 */
final class PemFiles {
    private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String KEY_END = "-----END PRIVATE KEY-----";
    /** The most characters of a JDK parser's message an error quotes. */
    private static final int MAX_QUOTED = 120;
    private static final Set<PosixFilePermission> OWNER_ONLY = Set.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);

    private PemFiles() {
    }

    /** The certificates of {@code file}, in file order (a chain: the leaf first). */
    static X509Certificate[] certificates(Path file) throws IOException {
        byte[] bytes = read(file);
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            factory.generateCertificates(new ByteArrayInputStream(bytes))
                    .forEach(c -> certs.add((X509Certificate) c));
        } catch (CertificateException e) {
            throw new IOException("not a PEM certificate file (" + firstLine(e) + "): it must hold "
                    + "'-----BEGIN CERTIFICATE-----' blocks");
        }
        if (certs.isEmpty()) {
            throw new IOException("holds no certificate: it must hold '-----BEGIN CERTIFICATE-----' blocks");
        }
        return certs.toArray(X509Certificate[]::new);
    }

    /** The unencrypted PKCS#8 private key of {@code file}, which must be readable by its owner only. */
    static PrivateKey privateKey(Path file) throws IOException {
        checkOwnerOnly(file);
        String text = new String(read(file), StandardCharsets.US_ASCII);
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            throw new IOException("is an encrypted key: give an unencrypted PKCS#8 key (mode 0600), e.g. "
                    + "'openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW'");
        }
        if (text.contains("-----BEGIN EC PRIVATE KEY-----") || text.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            throw new IOException("is a traditional (SEC1/PKCS#1) key, not PKCS#8: convert it with "
                    + "'openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW'");
        }
        int begin = text.indexOf(KEY_BEGIN);
        int end = text.indexOf(KEY_END);
        if (begin < 0 || end < begin) {
            throw new IOException("holds no '" + KEY_BEGIN + "' block: give the PKCS#8 PEM private key");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(begin + KEY_BEGIN.length(), end));
        } catch (IllegalArgumentException e) {
            throw new IOException("has a private key block that is not base64");
        }
        for (String algorithm : new String[] {"EC", "RSA", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // Try the next algorithm.
            }
        }
        throw new IOException("holds a private key that is not an EC, RSA or Ed25519 PKCS#8 key");
    }

    private static void checkOwnerOnly(Path file) throws IOException {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (NoSuchFileException e) {
            throw new IOException("does not exist: check the path");
        } catch (UnsupportedOperationException e) {
            return;
        }
        if (!OWNER_ONLY.containsAll(permissions)) {
            throw new IOException("lets group or others read the private key (mode "
                    + java.nio.file.attribute.PosixFilePermissions.toString(permissions) + "): chmod 600 " + file);
        }
    }

    private static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IOException("does not exist: check the path");
        } catch (AccessDeniedException e) {
            throw new IOException("cannot be read by this user: check its owner and mode");
        } catch (IOException e) {
            throw new IOException("cannot be read: " + e.getMessage());
        }
    }

    /**
     * The first line of {@code e}'s message, cut to {@link #MAX_QUOTED} characters, control characters shown as
     * '?': the JDK's message may quote the file, and a log line must not carry its garbage (escapes, carriage
     * returns, a megabyte without a newline).
     */
    static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        String line = nl < 0 ? m : m.substring(0, nl);
        StringBuilder out = new StringBuilder(Math.min(line.length(), MAX_QUOTED) + 3);
        for (int i = 0; i < line.length() && i < MAX_QUOTED; i++) {
            char c = line.charAt(i);
            out.append(Character.isISOControl(c) ? '?' : c);
        }
        return line.length() > MAX_QUOTED ? out.append("...").toString() : out.toString();
    }
}
