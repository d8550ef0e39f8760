package io.ricochet.control.tls;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --tls-cert}, {@code --tls-key} and {@code --tls-ca} options of a command that speaks to the GMS (or is
 * it), as a picocli mixin ({@code @Mixin TlsOptions tls}): one declaration for the GMS, the detector and the load
 * generator. The daemon reads the same three as {@code tls-*} keys of its settings.
 */
public final class TlsOptions {
    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "This process's certificate for the control links (PEM; OU names its role: gms, daemon or "
                    + "detector; CN its identity), signed by the CA of --tls-ca; followed by any intermediate "
                    + "certificates. 'scripts/certs' makes a test CA and certificates.")
    private Path cert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "The private key of --tls-cert: unencrypted PKCS#8 PEM, mode 0600.")
    private Path key;

    @Option(names = "--tls-ca", paramLabel = "FILE",
            description = "The cluster's CA certificate (PEM): the other end of every control link must present a "
                    + "certificate it signed.")
    private Path ca;

    /** Whether any of the three files was given. */
    public boolean anyGiven() {
        return cert != null || key != null || ca != null;
    }

    /**
     * The settings these options make, checked to be {@code role}'s and (unless null) {@code name}'s certificate.
     *
     * @param insecure     plaintext links: the files must then be absent
     * @param insecureName how the command names its way to ask for that, for messages
     * @throws IllegalArgumentException with a one-line message naming the option that is wrong
     */
    public TlsSettings settings(boolean insecure, String insecureName, PeerIdentity.Role role, String name) {
        return TlsSettings.from(cert, key, ca, insecure, "--", insecureName)
                .requireSelf(role, name, "--tls-cert " + cert);
    }
}
