package io.ricochet.control.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one identity offered for the key's own type and no other, and nothing under another alias. */
class SingleKeyManagerTest {
    @TempDir
    Path dir;

    @Test
    void shouldOfferTheKeyForItsOwnTypeOnly() throws Exception {
        TestCertificates.make(dir, "daemon:node-1");
        X509Certificate[] chain = PemFiles.certificates(dir.resolve("node-1.pem"));
        PrivateKey key = PemFiles.privateKey(dir.resolve("node-1.key"));
        SingleKeyManager manager = new SingleKeyManager(key, chain);

        assertEquals("EC", key.getAlgorithm(), "scripts/certs makes EC keys");
        assertEquals("self", manager.chooseEngineServerAlias("EC", null, null));
        assertNull(manager.chooseEngineServerAlias("RSA", null, null));
        assertEquals("self", manager.chooseEngineClientAlias(new String[] {"RSA", "EC"}, null, null));
        assertNull(manager.chooseEngineClientAlias(new String[] {"RSA"}, null, null));
        assertNull(manager.getServerAliases("RSASSA-PSS", null));
        assertArrayEquals(chain, manager.getCertificateChain("self"));
        assertEquals(key, manager.getPrivateKey("self"));
        assertNull(manager.getPrivateKey("other"));
        assertNull(manager.getCertificateChain("other"));
    }

    @Test
    void shouldOfferAnRsaKeyForRsa() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        SingleKeyManager manager = new SingleKeyManager(rsa.generateKeyPair().getPrivate(), new X509Certificate[0]);
        assertEquals("self", manager.chooseServerAlias("RSA", null, null));
        assertNull(manager.chooseServerAlias("EC", null, null));
    }
}
