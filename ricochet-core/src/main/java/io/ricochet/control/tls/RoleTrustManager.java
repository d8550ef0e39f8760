package io.ricochet.control.tls;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts a peer only if its chain leads to the cluster's CA and its leaf certificate has one role
 * ({@link PeerIdentity}); no host name is checked, since peers are named by their certificates. Both directions
 * (client and server) check the same. Being an {@link X509ExtendedTrustManager}, it is called as it is: the JDK
 * adds no host-name check of its own around it.
 */
final class RoleTrustManager extends X509ExtendedTrustManager {
    private final X509TrustManager ca;
    private final PeerIdentity.Role role;

    private RoleTrustManager(X509TrustManager ca, PeerIdentity.Role role) {
        this.ca = ca;
        this.role = role;
    }

    static RoleTrustManager of(X509Certificate[] trusted, PeerIdentity.Role role) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < trusted.length; i++) {
                store.setCertificateEntry("ca-" + i, trusted[i]);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (var manager : factory.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    return new RoleTrustManager(x509, role);
                }
            }
            throw new IllegalStateException("no X.509 trust manager in this JVM");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a trust manager from a CA that loaded: " + e, e);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        ca.checkClientTrusted(chain, authType);
        requireRole(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        ca.checkServerTrusted(chain, authType);
        requireRole(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return ca.getAcceptedIssuers();
    }

    private void requireRole(X509Certificate[] chain) throws CertificateException {
        PeerIdentity peer = PeerIdentity.of(chain[0]);
        if (peer.role() != role) {
            throw new CertificateException("the peer's certificate is for " + peer + ", not role "
                    + role.name().toLowerCase(java.util.Locale.ROOT));
        }
    }
}
