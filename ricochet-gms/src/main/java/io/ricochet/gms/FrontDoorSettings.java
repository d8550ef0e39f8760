package io.ricochet.gms;

/**
 * What a GMS partition's listening socket takes before any message is read, and how many requests one session may have
 * in the Raft log at once (issue 33: 19 900 idle connections without a certificate in 2 s exhausted the process's
 * files; a mass LEAVE overflowed the Raft queue).
 * <p>
 * {@code maxConnections}: connections the socket holds at once, from everyone; one more is closed as it is accepted,
 * before any TLS work. A partition serves each daemon of the cluster one session and each failure detector one or two
 * (verdicts, and WATCH on partition 0), so 1024 serves a cluster of about a thousand nodes; a larger one raises it,
 * keeping it times the partitions hosted below the process's open-file limit (65 536 in the systemd unit). {@code
 * maxConnectionsPerAddress}: connections from one IP address at once, so that one host cannot take every place: a host
 * runs one daemon and at most a detector or two, each with a session per partition, and a session being replaced by
 * the next one for a moment; 16 is twice that. A peer with the GMS host's own address is not held to it (every process
 * of the host shares it: the tests and benches run hundreds of daemons on 127.0.0.1); the total holds for it too.
 * {@code handshakeTimeoutMs}: a connection that has not finished its TLS handshake by then is closed (Netty's default
 * was 10 s, so an idle connection held its place that long); a handshake takes a few milliseconds on a LAN, but a
 * daemon's first one, in a fresh JVM on a busy host, took more than a second in the system tests, so 5 s: the
 * connection caps bound what idle handshakes can hold meanwhile. {@code sessionRequestsInFlight}: a session with that
 * many requests handed to the Raft log and not yet committed is no longer read until some are (backpressure instead of
 * a queue that overflows); a daemon joining groups at start sends one JOIN after the other, and 64 in flight keeps the
 * partition's log busy for it.
 */
public record FrontDoorSettings(int maxConnections, int maxConnectionsPerAddress, int handshakeTimeoutMs,
                                int sessionRequestsInFlight) {
    /** Connections a listening socket holds at once, by default. */
    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    /** Connections from one address a listening socket holds at once, by default. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 16;
    /** The TLS handshake timeout, by default. */
    public static final int DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;
    /** Requests in flight per session, by default. */
    public static final int DEFAULT_SESSION_REQUESTS_IN_FLIGHT = 64;
    /** The defaults: 1024 connections, 16 per address, a 5 s handshake, 64 requests in flight per session. */
    public static final FrontDoorSettings DEFAULT = new FrontDoorSettings(DEFAULT_MAX_CONNECTIONS,
            DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_SESSION_REQUESTS_IN_FLIGHT);
    /** The most connections a socket may be allowed (far above any file limit). */
    public static final int MAX_CONNECTIONS = 1 << 20;
    /** The shortest handshake timeout (tests use it; a real handshake needs more). */
    public static final int MIN_HANDSHAKE_TIMEOUT_MS = 10;
    /** The longest handshake timeout. */
    public static final int MAX_HANDSHAKE_TIMEOUT_MS = 60_000;
    /** The most requests in flight a session may be allowed. */
    public static final int MAX_REQUESTS_IN_FLIGHT = 65_536;

    public FrontDoorSettings {
        if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("--max-connections must be in 1.." + MAX_CONNECTIONS + ", got "
                    + maxConnections);
        }
        if (maxConnectionsPerAddress < 1 || maxConnectionsPerAddress > maxConnections) {
            throw new IllegalArgumentException("--max-connections-per-address must be in 1..--max-connections ("
                    + maxConnections + "), got " + maxConnectionsPerAddress);
        }
        if (handshakeTimeoutMs < MIN_HANDSHAKE_TIMEOUT_MS || handshakeTimeoutMs > MAX_HANDSHAKE_TIMEOUT_MS) {
            throw new IllegalArgumentException("--tls-handshake-timeout-ms must be in " + MIN_HANDSHAKE_TIMEOUT_MS
                    + ".." + MAX_HANDSHAKE_TIMEOUT_MS + ", got " + handshakeTimeoutMs);
        }
        if (sessionRequestsInFlight < 1 || sessionRequestsInFlight > MAX_REQUESTS_IN_FLIGHT) {
            throw new IllegalArgumentException("--session-requests-in-flight must be in 1.." + MAX_REQUESTS_IN_FLIGHT
                    + ", got " + sessionRequestsInFlight);
        }
    }
}
