package io.ricochet.api.server;

/**
 * Who may use the local API and how much (docs/api.md, "Access control"): whether it listens on TCP at all, the
 * quotas per {@link Principal} (a Unix socket peer's uid; all TCP connections are one principal, "tcp"), and the
 * allow list per group. Defaults: TCP on, 128 connections, 8192 groups joined and unlimited sends per principal,
 * no allow list: one application, or a few, never notice them; a second user cannot be locked out by a first that
 * holds every connection or group.
 *
 * @param tcp                            whether the API listens on TCP; off needs a Unix socket
 * @param maxConnectionsPerPrincipal     connections one principal may have open; the next gets LIMIT_EXCEEDED
 * @param maxGroupsPerPrincipal          group memberships one principal may hold over all its connections; the next
 *                                       JOIN gets LIMIT_EXCEEDED
 * @param maxSendsPerSecondPerPrincipal  SEND and TRY_SEND requests one principal may make per second (a token
 *                                       bucket holding one second's worth), 0 = unlimited; beyond, BUSY
 * @param groupAccess                    the allow list per group
 */
public record ApiAccess(boolean tcp, int maxConnectionsPerPrincipal, int maxGroupsPerPrincipal,
        int maxSendsPerSecondPerPrincipal, GroupAccess groupAccess) {

    /** Default of {@link #maxConnectionsPerPrincipal()}: half the default connection limit. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_PRINCIPAL = 128;
    /** Default of {@link #maxGroupsPerPrincipal()}: half the daemon's default group limit. */
    public static final int DEFAULT_MAX_GROUPS_PER_PRINCIPAL = 8192;
    /** Upper bound of {@link #maxSendsPerSecondPerPrincipal()}. */
    public static final int MAX_SENDS_PER_SECOND = 100_000_000;

    public ApiAccess {
        if (maxConnectionsPerPrincipal < 1 || maxConnectionsPerPrincipal > ApiConfig.MAX_COUNT_LIMIT) {
            throw new IllegalArgumentException("max connections per principal " + maxConnectionsPerPrincipal
                    + ": must be in 1.." + ApiConfig.MAX_COUNT_LIMIT);
        }
        if (maxGroupsPerPrincipal < 1 || maxGroupsPerPrincipal > ApiConfig.MAX_COUNT_LIMIT) {
            throw new IllegalArgumentException("max groups per principal " + maxGroupsPerPrincipal
                    + ": must be in 1.." + ApiConfig.MAX_COUNT_LIMIT);
        }
        if (maxSendsPerSecondPerPrincipal < 0 || maxSendsPerSecondPerPrincipal > MAX_SENDS_PER_SECOND) {
            throw new IllegalArgumentException("max sends per second per principal " + maxSendsPerSecondPerPrincipal
                    + ": must be in 0 (unlimited).." + MAX_SENDS_PER_SECOND);
        }
        if (groupAccess == null) {
            throw new IllegalArgumentException("group access must be given (GroupAccess.OPEN for none)");
        }
    }

    /** The defaults described above. */
    public static ApiAccess defaults() {
        return new ApiAccess(true, DEFAULT_MAX_CONNECTIONS_PER_PRINCIPAL, DEFAULT_MAX_GROUPS_PER_PRINCIPAL, 0,
                GroupAccess.OPEN);
    }

    public ApiAccess withTcp(boolean on) {
        return new ApiAccess(on, maxConnectionsPerPrincipal, maxGroupsPerPrincipal, maxSendsPerSecondPerPrincipal,
                groupAccess);
    }

    public ApiAccess withMaxConnectionsPerPrincipal(int max) {
        return new ApiAccess(tcp, max, maxGroupsPerPrincipal, maxSendsPerSecondPerPrincipal, groupAccess);
    }

    public ApiAccess withMaxGroupsPerPrincipal(int max) {
        return new ApiAccess(tcp, maxConnectionsPerPrincipal, max, maxSendsPerSecondPerPrincipal, groupAccess);
    }

    public ApiAccess withMaxSendsPerSecondPerPrincipal(int max) {
        return new ApiAccess(tcp, maxConnectionsPerPrincipal, maxGroupsPerPrincipal, max, groupAccess);
    }

    public ApiAccess withGroupAccess(GroupAccess access) {
        return new ApiAccess(tcp, maxConnectionsPerPrincipal, maxGroupsPerPrincipal, maxSendsPerSecondPerPrincipal,
                access);
    }
}
