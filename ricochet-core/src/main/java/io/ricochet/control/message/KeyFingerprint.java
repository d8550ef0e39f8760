package io.ricochet.control.message;

/**
 * One cluster key as a daemon names it in REGISTER: the key's id (u8, 1 to 255) and a short fingerprint (u64) that
 * tells keys apart without revealing them (the daemon computes it with {@code ClusterKeys.fingerprint}). The GMS
 * compares it with the cluster's fingerprint of the same id ({@code docs/design/security.md}, "Misconfiguration").
 */
public record KeyFingerprint(int keyId, long fingerprint) {
    public KeyFingerprint {
        if (keyId < 1 || keyId > 255) {
            throw new IllegalArgumentException("key id must be 1 to 255, got " + keyId);
        }
    }

    /** As the GMS setting and the messages write it: {@code ID:HEX} with 16 hex digits, e.g. {@code 1:0f3a...}. */
    @Override
    public String toString() {
        return keyId + ":" + String.format("%016x", fingerprint);
    }

    /**
     * Parses {@link #toString}'s form.
     *
     * @throws IllegalArgumentException with a message saying what the form is
     */
    public static KeyFingerprint parse(String text) {
        int colon = text.indexOf(':');
        String hex = colon < 0 ? "" : text.substring(colon + 1);
        if (colon < 1 || hex.length() != 16) {
            throw new IllegalArgumentException("key fingerprint '" + text + "' is not ID:HEX (the key id, a colon, "
                    + "16 hex digits), as 'ricochet keygen' and the daemon's log print it");
        }
        try {
            return new KeyFingerprint(Integer.parseInt(text.substring(0, colon)), Long.parseUnsignedLong(hex, 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("key fingerprint '" + text + "' is not ID:HEX (16 hex digits)", e);
        }
    }
}
