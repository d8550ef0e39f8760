package io.ricochet.auth;

import io.ricochet.engine.OriginSeals;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * How a process authenticates its datagrams: with the cluster's keys (the default, and the only way to run unless
 * told otherwise), or not at all, which a daemon or detector does only when started with {@code --insecure} and then
 * says in its log and its stats (docs/design/security.md).
 */
public final class Authentication {
    private final ClusterKeys keys;

    private Authentication(ClusterKeys keys) {
        this.keys = keys;
    }

    /** Authenticated with {@code keys}. */
    public static Authentication with(ClusterKeys keys) {
        return new Authentication(keys);
    }

    /** No authentication: every datagram is taken as it comes, and none carries a trailer. */
    public static Authentication insecure() {
        return new Authentication(null);
    }

    /**
     * From a process's settings: the key file, or {@code insecure}. Neither, or both, is refused with a message that
     * says how to fix it.
     *
     * @throws IllegalArgumentException for a missing choice or a bad key file (the message names the file)
     */
    public static Authentication from(Path keyFile, boolean insecure) {
        if (insecure && keyFile != null) {
            throw new IllegalArgumentException("both a key file and insecure mode were given: choose one");
        }
        if (insecure) {
            return insecure();
        }
        if (keyFile == null) {
            throw new IllegalArgumentException("no key file: give the cluster's key file (make one with 'ricochet "
                    + "keygen --out FILE', mode 0600, the same on every host), or run unauthenticated on purpose "
                    + "with insecure mode");
        }
        try {
            return with(ClusterKeys.load(keyFile));
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public boolean enabled() {
        return keys != null;
    }

    /** The origin seals for one engine thread: {@link OriginSeals#NONE} when insecure. */
    public OriginSeals newOriginSeals() {
        return keys == null ? OriginSeals.NONE : new DataSeals(keys);
    }

    /** A guard for one thread. */
    public FrameGuard newGuard() {
        return keys == null ? Passthrough.INSTANCE : new DatagramAuth(keys);
    }

    /** Extra bytes every datagram carries: the trailer, or 0 when insecure. */
    public int overhead() {
        return keys == null ? 0 : DatagramAuth.TRAILER_LENGTH;
    }

    /** For logs and stats, never key material: e.g. {@code HMAC-SHA256/128, send key 2, keys [1, 2]}. */
    public String describe() {
        return keys == null ? "OFF (insecure: any host that reaches the sockets can forge traffic)"
                : "HMAC-SHA256/128, send key " + keys.sendKeyId() + ", keys " + Arrays.toString(keys.keyIds());
    }

    @Override
    public String toString() {
        return describe();
    }

    /** No authentication: datagrams are frames as they are. */
    private enum Passthrough implements FrameGuard {
        INSTANCE;

        @Override
        public int seal(byte[] buf, int offset, int frameLength) {
            return frameLength;
        }

        @Override
        public int open(byte[] buf, int offset, int datagramLength) {
            return datagramLength;
        }
    }
}
