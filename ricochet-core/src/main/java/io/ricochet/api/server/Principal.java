package io.ricochet.api.server;

/**
 * Who is on the other end of an API connection, as far as the daemon can tell; quotas are kept per principal
 * (docs/api.md, "Access control"). A Unix socket connection is its peer's uid (and gid, both read with
 * SO_PEERCRED when it connects); every TCP connection is the one principal {@link #TCP}, since TCP says nothing of
 * the local account behind it; a Unix socket connection whose credentials could not be read is {@link #UNKNOWN}.
 * Only a principal with a known uid can be on a group's allow list.
 *
 * @param kind the kind of principal
 * @param uid  the peer's uid, or -1 unless {@code kind} is {@link Kind#UID}
 * @param gid  the peer's (effective, primary) gid, or -1 unless {@code kind} is {@link Kind#UID}
 */
public record Principal(Kind kind, int uid, int gid) {

    /** Every TCP connection. */
    public static final Principal TCP = new Principal(Kind.TCP, -1, -1);
    /** A Unix socket connection whose peer credentials could not be read. */
    public static final Principal UNKNOWN = new Principal(Kind.UNKNOWN, -1, -1);

    /** The kinds of principal. */
    public enum Kind {
        /** A Unix socket peer with known uid and gid. */
        UID,
        /** Any TCP connection: all share one principal. */
        TCP,
        /** A Unix socket peer whose credentials are unknown (no SO_PEERCRED): all share one principal. */
        UNKNOWN
    }

    public Principal {
        if (kind == null) {
            throw new IllegalArgumentException("kind must be given");
        }
        if (kind == Kind.UID ? uid < 0 || gid < 0 : uid != -1 || gid != -1) {
            throw new IllegalArgumentException(kind + " principal with uid " + uid + ", gid " + gid
                    + ": a UID principal needs uid, gid >= 0, the others -1");
        }
    }

    /** The Unix socket peer with these credentials. */
    public static Principal of(int uid, int gid) {
        return new Principal(Kind.UID, uid, gid);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case UID -> "uid " + uid + " (gid " + gid + ")";
            case TCP -> "tcp";
            case UNKNOWN -> "unknown (no peer credentials)";
        };
    }
}
