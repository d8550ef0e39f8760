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
    private final DatagramClock clock;
    private final ReplayFilter replays;
    private final boolean encrypt;
    /** Where the keys came from, for messages; null if not from a file. */
    private final Path keyFile;

    private Authentication(ClusterKeys keys, DatagramClock clock, ReplayFilter replays, Path keyFile,
                           boolean encrypt) {
        this.keys = keys;
        this.clock = clock;
        this.replays = replays;
        this.keyFile = keyFile;
        this.encrypt = encrypt;
    }

    /** Authenticated with {@code keys}, datagrams refused beyond the default clock skew (30 s). */
    public static Authentication with(ClusterKeys keys) {
        return with(keys, ReplayFilter.DEFAULT_MAX_CLOCK_SKEW_MS);
    }

    /**
     * Authenticated with {@code keys}; a datagram sent more than {@code maxClockSkewMs} from this host's clock is
     * refused as stale. One instance per process (per node): its guards share one replay filter.
     */
    public static Authentication with(ClusterKeys keys, long maxClockSkewMs) {
        return with(keys, DatagramClock.system(), new ReplayFilter(maxClockSkewMs, System::currentTimeMillis));
    }

    /** Authenticated with {@code keys}, sealing with {@code clock} and opening through {@code replays} (tests). */
    public static Authentication with(ClusterKeys keys, DatagramClock clock, ReplayFilter replays) {
        return new Authentication(java.util.Objects.requireNonNull(keys, "keys"), clock, replays, null, false);
    }

    /** No authentication: every datagram is taken as it comes, and none carries a trailer. */
    public static Authentication insecure() {
        return new Authentication(null, null, null, null, false);
    }

    /**
     * From a process's settings: the key file, or {@code insecure}. Neither, or both, is refused with a message that
     * says how to fix it, naming the options {@code --key-file} and {@code --insecure}.
     *
     * @throws IllegalArgumentException for a missing choice or a bad key file (the message names the file)
     */
    public static Authentication from(Path keyFile, boolean insecure) {
        return from(keyFile, insecure, ReplayFilter.DEFAULT_MAX_CLOCK_SKEW_MS);
    }

    /**
     * As {@link #from(Path, boolean)}, refusing datagrams sent more than {@code maxClockSkewMs} from this host's
     * clock.
     */
    public static Authentication from(Path keyFile, boolean insecure, long maxClockSkewMs) {
        return from(keyFile, insecure, maxClockSkewMs, "--key-file", "--insecure");
    }

    /**
     * As {@link #from(Path, boolean, long)}, with the process's names for its options in the messages.
     *
     * @param keyFileName  how the process's key file option is written ({@code --key-file})
     * @param insecureName how the process asks for insecure mode ({@code --insecure}, {@code --insecure on})
     */
    public static Authentication from(Path keyFile, boolean insecure, long maxClockSkewMs, String keyFileName,
                                      String insecureName) {
        if (insecure && keyFile != null) {
            throw new IllegalArgumentException(keyFileName + " and " + insecureName + " were both given: choose one");
        }
        if (insecure) {
            return insecure();
        }
        if (keyFile == null) {
            throw new IllegalArgumentException("no key file: datagrams are authenticated unless told otherwise; give "
                    + "the cluster's key file with " + keyFileName + " FILE (make one with 'ricochet keygen --out "
                    + "FILE', mode 0600, the same on every host), or run unauthenticated on purpose with "
                    + insecureName);
        }
        try {
            ClusterKeys keys = ClusterKeys.load(keyFile);
            return new Authentication(keys, DatagramClock.system(),
                    new ReplayFilter(maxClockSkewMs, System::currentTimeMillis), keyFile, false);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The cluster's keys, or null when insecure. */
    public ClusterKeys keys() {
        return keys;
    }

    /** The key file the keys were read from, or null (insecure, or keys not from a file). */
    public Path keyFile() {
        return keyFile;
    }

    public boolean enabled() {
        return keys != null;
    }

    /**
     * The same keys, clock and replay filter, with every frame but failure detection's also encrypted
     * (docs/design/security.md, "Encryption"): the setting {@code encrypt}.
     *
     * @throws IllegalArgumentException if this is insecure (encryption needs the cluster's key)
     */
    public Authentication encrypted() {
        if (keys == null) {
            throw new IllegalArgumentException("encrypt = on needs the cluster's key file: insecure mode cannot "
                    + "encrypt");
        }
        return new Authentication(keys, clock, replays, keyFile, true);
    }

    /** Whether frames are encrypted as well as authenticated. */
    public boolean encrypts() {
        return encrypt;
    }

    /** The origin seals for one engine thread: {@link OriginSeals#NONE} when insecure. */
    public OriginSeals newOriginSeals() {
        return keys == null ? OriginSeals.NONE : new DataSeals(keys);
    }

    /**
     * A guard for one thread of the process whose id (node id, detector wire id) is {@code self}: it opens frames
     * bound to their receiver only if they were sealed for {@code self}. Every guard of this instance seals with the
     * process's {@link DatagramClock} and opens through one shared {@link ReplayFilter}, so a datagram taken by one
     * is refused by all.
     */
    public FrameGuard newGuard(int self) {
        return keys == null ? Passthrough.INSTANCE : new DatagramAuth(keys, clock, replays, self, encrypt);
    }

    /** How far a datagram's send time may be from this host's clock; 0 when insecure. */
    public long maxClockSkewMs() {
        return replays == null ? 0 : replays.maxClockSkewMs();
    }

    /** Extra bytes every datagram carries: the trailer, or 0 when insecure. */
    public int overhead() {
        return keys == null ? 0 : DatagramAuth.TRAILER_LENGTH;
    }

    /**
     * For logs and stats, never key material: e.g.
     * {@code PMAC-AES-256, send key 2, keys [1, 2], replays refused, max clock skew 30000 ms}.
     */
    public String describe() {
        return keys == null ? "OFF (insecure: any host that reaches the sockets can forge traffic)"
                : DatagramAuth.ALGORITHM + ", send key " + keys.sendKeyId() + ", keys " + Arrays.toString(keys.keyIds())
                        + ", replays refused, max clock skew " + replays.maxClockSkewMs() + " ms"
                        + (encrypt ? ", frames encrypted (AES-256-CTR, SIV)" : ", frames in clear");
    }

    @Override
    public String toString() {
        return describe();
    }

    /** No authentication: datagrams are frames as they are. */
    private enum Passthrough implements FrameGuard {
        INSTANCE;

        @Override
        public int seal(byte[] buf, int offset, int frameLength, int destination) {
            return frameLength;
        }

        @Override
        public int open(byte[] buf, int offset, int datagramLength) {
            return datagramLength;
        }
    }
}
