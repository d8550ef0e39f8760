package io.ricochet.control.tls;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS of one process's control links (GMS and failure detector TCP connections): its certificate chain, its
 * private key and the CA it trusts, loaded and checked once at start, or plaintext ({@link #insecure()}).
 *
 * <p>Both ends use TLS 1.3 only (the JDK provider), present their certificate and trust only certificates the one
 * CA signed: the server requires a client certificate. Who the peer is comes from its certificate
 * ({@link PeerIdentity}); host names are not checked, since the CA's signature on the role and name is what counts.
 * Renewal is replacing the files and restarting the process (docs/design/security.md).
 *
 * <p>This is a class rather than a record of the three paths because its files are read and checked when it is
 * made, so a bad file stops the process at start with one line naming the option, never at the first connect.
 */
public final class TlsSettings {
    /** The only protocol version offered or accepted. */
    public static final String PROTOCOL = "TLSv1.3";
    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);
    private static final TlsSettings INSECURE = new TlsSettings(null, null, null, null, null, null);

    private final X509Certificate[] chain;
    private final PrivateKey privateKey;
    private final X509Certificate[] trusted;
    /**
     * Built on first use: only a process that accepts TLS links (a GMS replica, a detector) needs one, and the JDK
     * server context's first build costs a process about 100 ms of its start (Netty probes the JDK with a key store).
     */
    private final Supplier<SslContext> server;
    private final SslContext client;
    private final PeerIdentity self;

    private TlsSettings(X509Certificate[] chain, PrivateKey privateKey, X509Certificate[] trusted,
                        Supplier<SslContext> server, SslContext client, PeerIdentity self) {
        this.chain = chain;
        this.privateKey = privateKey;
        this.trusted = trusted;
        this.server = server;
        this.client = client;
        this.self = self;
    }

    /** Plaintext control links: anyone who reaches the GMS can register, join, leave and report failures. */
    public static TlsSettings insecure() {
        return INSECURE;
    }

    /**
     * From a process's settings: the three files, or insecure mode. Neither, both, or only some of the files are
     * refused with a message naming the option and saying how to fix it.
     *
     * @param optionPrefix what the option names start with: {@code "--"} for flags, {@code ""} for config keys
     * @param insecureName how the process's insecure option is written, for messages ({@code --insecure})
     * @throws IllegalArgumentException naming the option whose file is missing or bad
     */
    public static TlsSettings from(Path cert, Path key, Path ca, boolean insecure, String optionPrefix,
                                   String insecureName) {
        String certOption = optionPrefix + "tls-cert";
        String keyOption = optionPrefix + "tls-key";
        String caOption = optionPrefix + "tls-ca";
        boolean any = cert != null || key != null || ca != null;
        if (insecure && any) {
            throw new IllegalArgumentException(certOption + ": TLS files and " + insecureName + " were both given: "
                    + "choose one");
        }
        if (insecure) {
            return insecure();
        }
        if (!any) {
            throw new IllegalArgumentException(certOption + ": no certificate: the control links use mutual TLS; "
                    + "give " + certOption + ", " + keyOption + " and " + caOption + " (scripts/certs makes a test CA "
                    + "and certificates), or run unauthenticated on purpose with " + insecureName);
        }
        requireGiven(cert, certOption, certOption, keyOption, caOption);
        requireGiven(key, keyOption, certOption, keyOption, caOption);
        requireGiven(ca, caOption, certOption, keyOption, caOption);
        X509Certificate[] chain = read(certOption, cert, () -> PemFiles.certificates(cert));
        PrivateKey privateKey = read(keyOption, key, () -> PemFiles.privateKey(key));
        X509Certificate[] trusted = read(caOption, ca, () -> PemFiles.certificates(ca));
        checkValid(certOption, cert, chain[0]);
        for (X509Certificate c : trusted) {
            checkValid(caOption, ca, c);
        }
        if (!belongsTo(privateKey, chain[0])) {
            throw new IllegalArgumentException(keyOption + " " + key + ": is not the private key of the certificate in "
                    + certOption + " " + cert + ": give the key the certificate was made for");
        }
        if (!issuedBy(chain[chain.length - 1], trusted)) {
            throw new IllegalArgumentException(certOption + " " + cert + ": was not issued by the CA in " + caOption
                    + " " + ca + ": give this cluster's CA, or a certificate it signed");
        }
        try {
            KeyManager self = new SingleKeyManager(privateKey, chain);
            Supplier<SslContext> server = Suppliers.memoize(() -> serverContext(self, trusted));
            SslContext client = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).protocols(PROTOCOL)
                    .keyManager(self).trustManager(trusted).endpointIdentificationAlgorithm(null)
                    .build();
            return new TlsSettings(chain, privateKey, trusted, server, client, PeerIdentity.of(chain[0]));
        } catch (SSLException e) {
            throw new IllegalArgumentException(certOption + " " + cert + ": cannot set up TLS with these files: "
                    + e.getMessage());
        }
    }

    private static SslContext serverContext(KeyManager self, X509Certificate[] trusted) {
        try {
            return SslContextBuilder.forServer(self).sslProvider(SslProvider.JDK).protocols(PROTOCOL)
                    .trustManager(trusted).clientAuth(ClientAuth.REQUIRE).build();
        } catch (SSLException e) {
            // The files were checked and a client context built from them already.
            throw new IllegalStateException("cannot set up a TLS server with files that loaded: " + e, e);
        }
    }

    /**
     * This process's certificate and key as a JSSE key manager, for links that are not Netty pipelines of ours
     * (the GMS replicas' Raft links).
     *
     * @throws IllegalStateException when insecure
     */
    public KeyManager keyManager() {
        requireEnabled();
        return new SingleKeyManager(privateKey, chain);
    }

    /**
     * A trust manager that takes a peer (either side) only with a certificate chain from this cluster's CA whose
     * leaf has the role {@code role}; it checks no host name (peers are named by certificate, as on the control
     * links). For links that are not Netty pipelines of ours (the GMS replicas' Raft links).
     *
     * @throws IllegalStateException when insecure
     */
    public X509ExtendedTrustManager trustManager(PeerIdentity.Role role) {
        requireEnabled();
        return RoleTrustManager.of(trusted, role);
    }

    private void requireEnabled() {
        if (!enabled()) {
            throw new IllegalStateException("insecure: no certificate, no key, no CA");
        }
    }

    /** Whether control links use TLS. */
    public boolean enabled() {
        return server != null;
    }

    /** Who this process is, by its own certificate; null when insecure. */
    public PeerIdentity self() {
        return self;
    }

    /**
     * Checks that this process's certificate names it: role {@code role}, and CN {@code name} unless that is null.
     * A no-op when insecure.
     *
     * @param certOption the option that gave the certificate, for the message
     * @throws IllegalArgumentException if the certificate is for another role or name
     */
    public TlsSettings requireSelf(PeerIdentity.Role role, String name, String certOption) {
        if (!enabled() || (self.role() == role && (name == null || name.equals(self.name())))) {
            return this;
        }
        String wanted = role.label() + (name == null ? "" : " " + name);
        throw new IllegalArgumentException(certOption + ": the certificate is for " + self + " (subject "
                + self.subject() + "), but this process is " + wanted + ": give a certificate with OU=" + role.label()
                + (name == null ? "" : " and CN=" + name));
    }

    /** A new server-side TLS handler (client certificate required); only when {@link #enabled()}. */
    public SslHandler newServerHandler(ByteBufAllocator alloc) {
        return Objects.requireNonNull(server, "TLS is off").get().newHandler(alloc);
    }

    /** A new client-side TLS handler towards {@code remote}; only when {@link #enabled()}. */
    public SslHandler newClientHandler(ByteBufAllocator alloc, InetSocketAddress remote) {
        return Objects.requireNonNull(client, "TLS is off").newHandler(alloc, remote.getHostString(),
                remote.getPort());
    }

    /** When this process's own certificate expires; null when insecure. */
    public Instant certificateNotAfter() {
        return enabled() ? chain[0].getNotAfter().toInstant() : null;
    }

    /** For logs and stats: e.g. {@code TLS 1.3 as daemon node-3, certificate valid until 2027-11-25}. */
    public String describe() {
        if (!enabled()) {
            return "TLS OFF (insecure: plaintext control links)";
        }
        return "TLS 1.3 as " + self + ", certificate valid until " + DAY.format(chain[0].getNotAfter().toInstant());
    }

    @Override
    public String toString() {
        return describe();
    }

    private static void requireGiven(Path file, String option, String cert, String key, String ca) {
        if (file == null) {
            throw new IllegalArgumentException(option + ": not given: mutual TLS needs all three of " + cert + ", "
                    + key + " and " + ca);
        }
    }

    private static void checkValid(String option, Path file, X509Certificate cert) {
        try {
            cert.checkValidity();
        } catch (CertificateExpiredException e) {
            throw new IllegalArgumentException(option + " " + file + ": the certificate "
                    + cert.getSubjectX500Principal().getName() + " expired on "
                    + DAY.format(cert.getNotAfter().toInstant()) + ": make a new one and restart");
        } catch (CertificateNotYetValidException e) {
            throw new IllegalArgumentException(option + " " + file + ": the certificate "
                    + cert.getSubjectX500Principal().getName() + " is not valid before "
                    + DAY.format(cert.getNotBefore().toInstant()) + ": check this host's clock");
        }
    }

    private static boolean belongsTo(PrivateKey key, X509Certificate cert) {
        byte[] probe = "ricochet control link key check".getBytes(StandardCharsets.US_ASCII);
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            default -> key.getAlgorithm();
        };
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static boolean issuedBy(X509Certificate cert, X509Certificate[] trusted) {
        for (X509Certificate ca : trusted) {
            if (cert.equals(ca)) {
                return true;
            }
            try {
                cert.verify(ca.getPublicKey());
                return true;
            } catch (GeneralSecurityException e) {
                // Not this one.
            }
        }
        return false;
    }

    private interface Reader<T> {
        T read() throws IOException;
    }

    private static <T> T read(String option, Path file, Reader<T> reader) {
        try {
            return reader.read();
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": " + e.getMessage());
        }
    }
}
