package io.ricochet.control.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * This process's one certificate and key, offered for every handshake whose key type is the key's algorithm (EC
 * for the keys scripts/certs makes). Built directly from the key and chain: the JDK's way, a PKCS12 key store in
 * memory, protects the key entry with PBKDF2 even in memory, and that took about 100 ms of every process's start
 * per TLS context (measured on the daemon's start, docs/results.md, "Start-up").
 */
final class SingleKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS = "self";

    private final PrivateKey key;
    private final X509Certificate[] chain;

    SingleKeyManager(PrivateKey key, X509Certificate[] chain) {
        this.key = key;
        this.chain = chain.clone();
    }

    private String aliasFor(String keyType) {
        return key.getAlgorithm().equals(keyType) ? ALIAS : null;
    }

    private String[] aliasesFor(String keyType) {
        return aliasFor(keyType) == null ? null : new String[] {ALIAS};
    }

    private String choose(String[] keyTypes) {
        if (keyTypes != null) {
            for (String keyType : keyTypes) {
                if (aliasFor(keyType) != null) {
                    return ALIAS;
                }
            }
        }
        return null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return aliasesFor(keyType);
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return choose(keyTypes);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return choose(keyTypes);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return aliasesFor(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return aliasFor(keyType);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return aliasFor(keyType);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }
}
