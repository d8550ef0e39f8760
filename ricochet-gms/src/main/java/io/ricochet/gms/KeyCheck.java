package io.ricochet.gms;

import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.message.Register;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the cluster keys a REGISTER names ({@link KeyFingerprint}s) against the cluster's, so that a daemon with
 * another key file is told at once instead of looking up while nobody can read its datagrams. The GMS never holds
 * the datagram key (docs/design/security.md, "Threat model"); it knows the keys only by fingerprint:
 *
 * <ul>
 *   <li><b>Pinned</b> ({@code --key-fingerprint ID:HEX}, the line each daemon logs at start): a REGISTER whose send
 *       key is not pinned, or that names any key whose id is pinned with another fingerprint, is refused
 *       (ERROR KEY_MISMATCH, before the log). During a rotation, pin both keys.</li>
 *   <li><b>Not pinned:</b> nothing is refused (the first daemon to register after a leader change would otherwise
 *       decide for the cluster, and could lock every right one out); the first fingerprint seen for each key id
 *       is remembered and a REGISTER that names another for the same id gets a warning back for the log.</li>
 * </ul>
 *
 * A REGISTER that names no keys (an insecure daemon) is not checked. Bounded: at most 255 remembered ids. Used on
 * the partition's event loop.
 */
final class KeyCheck {
    /** A fingerprint first seen, and the node that named it. */
    private record Seen(KeyFingerprint key, int node) {
    }

    private final Map<Integer, KeyFingerprint> pinned = new HashMap<>();
    private final Map<Integer, Seen> seen = new HashMap<>();

    /** @param pinned the cluster's fingerprints, at most one per key id; empty: none pinned */
    KeyCheck(List<KeyFingerprint> pinned) {
        for (KeyFingerprint key : pinned) {
            if (this.pinned.put(key.keyId(), key) != null) {
                throw new IllegalArgumentException("key id " + key.keyId() + " pinned twice (--key-fingerprint)");
            }
        }
    }

    /** Checks nothing: no key pinned. */
    static KeyCheck unpinned() {
        return new KeyCheck(List.of());
    }

    /**
     * Checks {@code register}'s keys.
     *
     * @return a warning for the log (a fingerprint differs from the one first seen, with nothing pinned), or null
     * @throws GmsRefusal KEY_MISMATCH if a key differs from a pinned one, or the send key is not pinned
     */
    String check(Register register) throws GmsRefusal {
        List<KeyFingerprint> keys = register.keys();
        if (keys.isEmpty()) {
            return null;
        }
        if (!pinned.isEmpty()) {
            KeyFingerprint send = keys.get(0);
            if (!pinned.containsKey(send.keyId())) {
                throw mismatch(register, "its send key " + send.keyId() + " is not one of the cluster's keys "
                        + pinned.keySet());
            }
            for (KeyFingerprint key : keys) {
                KeyFingerprint cluster = pinned.get(key.keyId());
                if (cluster != null && cluster.fingerprint() != key.fingerprint()) {
                    throw mismatch(register, "its key " + key.keyId() + " (fingerprint " + key + ") differs from the "
                            + "cluster's (" + cluster + ")");
                }
            }
            return null;
        }
        String warning = null;
        for (KeyFingerprint key : keys) {
            Seen first = seen.putIfAbsent(key.keyId(), new Seen(key, register.nodeId()));
            if (first != null && first.key().fingerprint() != key.fingerprint() && warning == null) {
                warning = "node " + register.nodeId() + " names key " + key.keyId() + " with fingerprint " + key
                        + ", node " + first.node() + " named it " + first.key() + ": one of them has another key file "
                        + "(pin the right one with --key-fingerprint to refuse the other)";
            }
        }
        return warning;
    }

    private static GmsRefusal mismatch(Register register, String why) {
        return new GmsRefusal(ErrorCode.KEY_MISMATCH, "node " + register.nodeId() + " refused: " + why
                + ": its key file is not the cluster's");
    }
}
