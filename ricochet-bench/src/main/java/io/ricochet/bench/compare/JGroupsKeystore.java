package io.ricochet.bench.compare;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;

/**
 * The shared secret of JGroups' {@code SYM_ENCRYPT} ({@link SystemKind#JGROUPS_ENCRYPT}): one AES-128 key, made fresh
 * per run, in a PKCS#12 keystore every member reads (SYM_ENCRYPT's way: "all cluster members must be shipped with the
 * same keystore file"). It sits beside Ricochet's key file in the run's credentials folder.
 */
final class JGroupsKeystore {
    static final String FILE = "jgroups-sym.p12";
    static final String ALIAS = "ricochet-bench";
    /** The keystore's password: the file itself is the secret (mode 0600 in a folder of the run's own). */
    static final String PASSWORD = "ricochet-bench";
    static final String KEY_ALGORITHM = "AES";
    static final int KEY_BITS = 128;

    private JGroupsKeystore() {
    }

    /** Writes a keystore with a new key to {@code dir}. */
    static void write(Path dir) throws IOException {
        try {
            KeyGenerator generator = KeyGenerator.getInstance(KEY_ALGORITHM);
            generator.init(KEY_BITS, new SecureRandom());
            SecretKey key = generator.generateKey();
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setEntry(ALIAS, new KeyStore.SecretKeyEntry(key),
                    new KeyStore.PasswordProtection(PASSWORD.toCharArray()));
            Path file = dir.resolve(FILE);
            Files.deleteIfExists(file);
            try (OutputStream out = Files.newOutputStream(file)) {
                store.store(out, PASSWORD.toCharArray());
            }
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (GeneralSecurityException e) {
            throw new IOException("could not make JGroups' keystore: " + e.getMessage(), e);
        }
    }

    /** The keystore in {@code dir}. */
    static Path file(String dir) {
        return Path.of(dir, FILE);
    }
}
