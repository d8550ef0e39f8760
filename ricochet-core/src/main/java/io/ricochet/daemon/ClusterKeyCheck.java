package io.ricochet.daemon;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.control.message.KeyFingerprint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The daemon's half of the key check at REGISTER (docs/design/security.md, "Misconfiguration"): the fingerprints of
 * its cluster keys, which REGISTER carries, and the one-line error it stops with when the GMS refuses them
 * (ERROR KEY_MISMATCH).
 */
final class ClusterKeyCheck {
    private ClusterKeyCheck() {
    }

    /** The fingerprint of every key {@code auth} holds, the send key first; none when insecure. */
    static List<KeyFingerprint> fingerprints(Authentication auth) {
        ClusterKeys keys = auth.keys();
        List<KeyFingerprint> out = new ArrayList<>();
        if (keys != null) {
            for (int id : keys.keyIds()) {
                out.add(new KeyFingerprint(id, keys.fingerprint(id)));
            }
        }
        return out;
    }

    /** The error a daemon stops with when the GMS refused its keys with {@code gmsMessage}. */
    static String mismatchError(int nodeId, Path keyFile, String gmsMessage) {
        return "node " + nodeId + ": the key in key file " + (keyFile == null ? "(none)" : keyFile)
                + " differs from the cluster's; copy the cluster's key file to this host and restart (GMS: "
                + gmsMessage + ")";
    }
}
