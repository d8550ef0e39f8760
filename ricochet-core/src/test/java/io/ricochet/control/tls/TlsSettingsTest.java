package io.ricochet.control.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loading a process's TLS files (made by scripts/certs): one line naming the option for each mistake, and the
 * identity a certificate carries.
 */
class TlsSettingsTest {
    @TempDir
    static Path certs;
    @TempDir
    static Path otherCa;
    @TempDir
    static Path expired;

    @BeforeAll
    static void makeCertificates() throws Exception {
        TestCertificates.make(certs, "gms:gms-p0", "daemon:node-7", "detector:rack-1", "admin:alice");
        TestCertificates.make(otherCa, "daemon:node-7");
        TestCertificates.make(expired, "daemon:node-7");
        TestCertificates.make(expired, "--expired", "daemon:old-7");
    }

    @Test
    void shouldLoadACertificateAndSayWhoItIs() {
        TlsSettings tls = TestCertificates.settings(certs, "node-7");
        assertTrue(tls.enabled());
        assertEquals(new PeerIdentity(PeerIdentity.Role.DAEMON, "node-7", tls.self().subject()), tls.self());
        assertEquals(OptionalInt.of(7), tls.self().nodeId());
        assertTrue(tls.describe().startsWith("TLS 1.3 as daemon node-7, certificate valid until "), tls.describe());
        tls.requireSelf(PeerIdentity.Role.DAEMON, "node-7", "tls-cert");
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> tls.requireSelf(PeerIdentity.Role.DAEMON, "node-8", "tls-cert x.pem"));
        assertTrue(wrong.getMessage().startsWith("tls-cert x.pem: the certificate is for daemon node-7"),
                wrong.getMessage());
        assertTrue(wrong.getMessage().contains("CN=node-8"), wrong.getMessage());
        assertFalse(TlsSettings.insecure().enabled());
        assertTrue(TlsSettings.insecure().describe().contains("OFF"));
    }

    @Test
    void shouldReadTheRoleFromTheOuAndTheNameFromTheCn() throws Exception {
        assertEquals(PeerIdentity.Role.GMS, PeerIdentity.of(cert(certs, "gms-p0")).role());
        PeerIdentity detector = PeerIdentity.of(cert(certs, "rack-1"));
        assertEquals(PeerIdentity.Role.DETECTOR, detector.role());
        assertEquals("rack-1", detector.name());
        assertEquals(OptionalInt.empty(), detector.nodeId(), "only a daemon has a node id");
        PeerIdentity admin = PeerIdentity.of(cert(certs, "alice"));
        assertEquals(PeerIdentity.Role.OTHER, admin.role());
        assertEquals(OptionalInt.empty(), new PeerIdentity(PeerIdentity.Role.DAEMON, "node-x", "").nodeId());
        assertEquals(OptionalInt.empty(), new PeerIdentity(PeerIdentity.Role.DAEMON, "node-99999999999", "").nodeId());
        assertEquals(OptionalInt.of(0), new PeerIdentity(PeerIdentity.Role.DAEMON, "node-0", "").nodeId());
    }

    @Test
    void shouldRefuseEachMistakeOnOneLineNamingTheOption() throws Exception {
        Path cert = certs.resolve("node-7.pem");
        Path key = certs.resolve("node-7.key");
        Path ca = certs.resolve("ca.pem");
        assertRefused("--tls-cert: no certificate",
                () -> TlsSettings.from(null, null, null, false, "--", "--insecure"));
        assertRefused("--tls-key: not given", () -> TlsSettings.from(cert, null, ca, false, "--", "--insecure"));
        assertRefused("--tls-cert: TLS files and --insecure were both given",
                () -> TlsSettings.from(cert, key, ca, true, "--", "--insecure"));
        assertEquals(TlsSettings.insecure(), TlsSettings.from(null, null, null, true, "--", "--insecure"));
        Path missing = certs.resolve("nope.pem");
        assertRefused("--tls-cert " + missing + ": does not exist",
                () -> TlsSettings.from(missing, key, ca, false, "--", "--insecure"));
        assertRefused("--tls-cert " + key + ": not a PEM certificate file",
                () -> TlsSettings.from(key, key, ca, false, "--", "--insecure"));
        Path notKey = Files.copy(cert, certs.resolve("cert-as-key.key"));
        Files.setPosixFilePermissions(notKey, PosixFilePermissions.fromString("rw-------"));
        assertRefused("--tls-key " + notKey + ": holds no '-----BEGIN PRIVATE KEY-----' block",
                () -> TlsSettings.from(cert, notKey, ca, false, "--", "--insecure"));
        Path open = Files.copy(key, certs.resolve("open.key"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertRefused("--tls-key " + open + ": lets group or others read the private key",
                () -> TlsSettings.from(cert, open, ca, false, "--", "--insecure"));
        assertRefused("--tls-key " + certs.resolve("rack-1.key") + ": is not the private key of the certificate",
                () -> TlsSettings.from(cert, certs.resolve("rack-1.key"), ca, false, "--", "--insecure"));
        assertRefused("--tls-cert " + otherCa.resolve("node-7.pem") + ": was not issued by the CA",
                () -> TlsSettings.from(otherCa.resolve("node-7.pem"), otherCa.resolve("node-7.key"), ca, false, "--",
                        "--insecure"));
    }

    @Test
    void shouldRefuseAnExpiredCertificateAtStart() {
        Path cert = expired.resolve("old-7.pem");
        assertRefused("--tls-cert " + cert + ": the certificate CN=old-7,OU=daemon,O=Ricochet expired on ",
                () -> TlsSettings.from(cert, expired.resolve("old-7.key"), expired.resolve("ca.pem"), false, "--",
                        "--insecure"));
    }

    private static void assertRefused(String start, org.junit.jupiter.api.function.Executable load) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, load);
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    private static X509Certificate cert(Path dir, String name) throws Exception {
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".pem"))) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    @Test
    void shouldTrustForRaftLinksOnlyPeersOfTheCaWithTheRole() throws Exception {
        TlsSettings gms = TestCertificates.settings(certs, "gms-p0");
        javax.net.ssl.X509ExtendedTrustManager trust = gms.trustManager(PeerIdentity.Role.GMS);
        trust.checkClientTrusted(PemFiles.certificates(certs.resolve("gms-p0.pem")), "EC");
        trust.checkServerTrusted(PemFiles.certificates(certs.resolve("gms-p0.pem")), "ECDHE_ECDSA");
        java.security.cert.CertificateException daemon = assertThrows(java.security.cert.CertificateException.class,
                () -> trust.checkClientTrusted(PemFiles.certificates(certs.resolve("node-7.pem")), "EC"));
        assertTrue(daemon.getMessage().contains("not role gms"), daemon.getMessage());
        assertThrows(java.security.cert.CertificateException.class,
                () -> trust.checkServerTrusted(PemFiles.certificates(otherCa.resolve("node-7.pem")), "ECDHE_ECDSA"));
        assertTrue(gms.keyManager() instanceof javax.net.ssl.X509KeyManager);
        assertThrows(IllegalStateException.class, () -> TlsSettings.insecure().keyManager());
    }
}
