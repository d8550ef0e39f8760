package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.control.message.KeyFingerprint;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's half of the key check at REGISTER: what it sends, and the line it stops with. */
class ClusterKeyCheckTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameEveryKeyOfTheKeyFileByIdAndFingerprint() throws Exception {
        Path file = dir.resolve("cluster.keys");
        ClusterKeys.generate(new SecureRandom(), 9).write(file);
        Authentication auth = Authentication.from(file, false);
        ClusterKeys keys = ClusterKeys.load(file);
        assertEquals(List.of(new KeyFingerprint(9, keys.fingerprint(9))), ClusterKeyCheck.fingerprints(auth));
        assertEquals(file, auth.keyFile());
    }

    @Test
    void shouldSendNoKeysWhenInsecure() {
        assertEquals(List.of(), ClusterKeyCheck.fingerprints(Authentication.insecure()));
    }

    @Test
    void shouldStopWithOneLineThatNamesTheKeyFileAndSaysItDiffers() {
        String error = ClusterKeyCheck.mismatchError(3, Path.of("/etc/ricochet/cluster.keys"),
                "node 3 refused: its key 1 (fingerprint 1:00) differs from the cluster's (1:01)");
        assertTrue(error.startsWith("node 3: the key in key file /etc/ricochet/cluster.keys differs from the "
                + "cluster's"), error);
        assertTrue(error.contains("node 3 refused: its key 1"), error);
        assertFalse(error.contains("\n"), error);
    }
}
