package io.ricochet.api.server;

import io.ricochet.api.protocol.ApiProtocol;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;

/**
 * Settings of the local API server, validated on construction. Defaults: loopback only, port 7400, frames of up to
 * 64 KiB, a write buffer of 1 MiB / 4 MiB per connection (low / high water mark) beyond which deliveries to a
 * slow subscriber are dropped (docs/api.md, "Backpressure"), and the limits of docs/api.md, "Limits": 256
 * connections, HELLO within 5 s, a started frame completed within 30 s, 1024 requests in flight and 1024 groups
 * per connection. No Unix domain socket unless {@link #withUnixSocket(Path)} names one (docs/api.md, "Unix domain
 * socket"); when it does, the API listens on it as well as on TCP (unless {@link ApiAccess#tcp()} is off), and its
 * file mode and group decide who may connect. {@link #access()} holds the per-principal quotas and the group allow
 * list (docs/api.md, "Access control").
 *
 * @param bindAddress              address to listen on; anything but loopback exposes the daemon to the network
 * @param port                     TCP port; 0 picks a free one ({@link ApiServer#boundPort()})
 * @param maxFrameLength           largest length field accepted from a client (bytes after the length prefix)
 * @param writeBufferLowWaterMark  pending outbound bytes under which a full connection is writable again
 * @param writeBufferHighWaterMark pending outbound bytes above which deliveries to the connection are dropped
 * @param maxConnections           connections served at once; the next one gets ERROR LIMIT_EXCEEDED and is closed
 * @param helloTimeout             time a new connection has to send its HELLO before it is closed
 * @param partialFrameTimeout      time a frame whose first bytes arrived has to arrive in full before the
 *                                 connection is closed; a connection with no partial frame may stay idle forever
 * @param maxRequestsInFlight      requests of one connection started but whose replies are not yet written, at
 *                                 which the daemon stops reading the connection (until half of them are written)
 * @param maxGroupsPerConnection   groups one connection may be in; a JOIN beyond gets ERROR LIMIT_EXCEEDED
 * @param unixSocket               absolute path of a Unix domain socket to listen on as well, or null for none
 * @param unixSocketMode           the socket file's permissions, as {@code ls -l} writes them ({@code rw-rw----});
 *                                 connecting needs write permission on the file
 * @param unixSocketGroup          the group the socket file is given, or null to keep the daemon's own group
 * @param access                   whether TCP is on, the quotas per principal (uid) and the group allow list;
 *                                 TCP off needs a Unix socket
 */
public record ApiConfig(String bindAddress, int port, int maxFrameLength, int writeBufferLowWaterMark,
        int writeBufferHighWaterMark, int maxConnections, Duration helloTimeout, Duration partialFrameTimeout,
        int maxRequestsInFlight, int maxGroupsPerConnection, Path unixSocket, String unixSocketMode,
        String unixSocketGroup, ApiAccess access) {

    /** Loopback: only applications on this blade may connect. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** Smallest accepted max frame length: room for a 1 KiB payload and then some. */
    public static final int MIN_FRAME_LENGTH = 1024;
    /** Default of {@link #maxConnections()}. */
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    /** Default of {@link #helloTimeout()}. */
    public static final Duration DEFAULT_HELLO_TIMEOUT = Duration.ofSeconds(5);
    /** Default of {@link #partialFrameTimeout()}. */
    public static final Duration DEFAULT_PARTIAL_FRAME_TIMEOUT = Duration.ofSeconds(30);
    /** Default of {@link #maxRequestsInFlight()}. */
    public static final int DEFAULT_MAX_REQUESTS_IN_FLIGHT = 1024;
    /** Default of {@link #maxGroupsPerConnection()}. */
    public static final int DEFAULT_MAX_GROUPS_PER_CONNECTION = 1024;
    /** Upper bound of the count limits (connections, requests in flight, groups per connection). */
    public static final int MAX_COUNT_LIMIT = 65_536;
    /** Upper bound of the timeouts. */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    /** Default of {@link #unixSocketMode()}: only the daemon's own user may connect. */
    public static final String DEFAULT_UNIX_SOCKET_MODE = "rw-------";
    /** Longest Unix socket path in bytes: Linux's {@code sun_path} holds 108 bytes, the terminating NUL included. */
    public static final int MAX_UNIX_SOCKET_PATH_BYTES = 107;
    private static final int MIB = 1024 * 1024;

    public ApiConfig {
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("bind address must be given");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + ": must be in 0..65535");
        }
        if (maxFrameLength < MIN_FRAME_LENGTH || maxFrameLength > ApiProtocol.MAX_INBOUND_FRAME_LENGTH) {
            throw new IllegalArgumentException("max frame length " + maxFrameLength + ": must be in "
                    + MIN_FRAME_LENGTH + ".." + ApiProtocol.MAX_INBOUND_FRAME_LENGTH);
        }
        if (writeBufferLowWaterMark < 1 || writeBufferHighWaterMark < writeBufferLowWaterMark) {
            throw new IllegalArgumentException("write buffer water marks " + writeBufferLowWaterMark + " / "
                    + writeBufferHighWaterMark + ": need 1 <= low <= high");
        }
        checkCount("max connections", maxConnections);
        checkTimeout("HELLO timeout", helloTimeout);
        checkTimeout("partial frame timeout", partialFrameTimeout);
        checkCount("max requests in flight", maxRequestsInFlight);
        checkCount("max groups per connection", maxGroupsPerConnection);
        checkUnixSocket(unixSocket);
        parseMode(unixSocketMode);
        if (unixSocketGroup != null && unixSocketGroup.isBlank()) {
            throw new IllegalArgumentException("Unix socket group must not be blank (null keeps the default group)");
        }
        if (access == null) {
            throw new IllegalArgumentException("access settings must be given (ApiAccess.defaults())");
        }
        if (!access.tcp() && unixSocket == null) {
            throw new IllegalArgumentException("the API would listen nowhere: TCP is off (api-tcp) and no Unix "
                    + "socket is set (api-unix-socket); turn TCP on or name a Unix socket");
        }
    }

    /** The {@link #unixSocketMode()} as permissions. */
    public Set<PosixFilePermission> unixSocketPermissions() {
        return PosixFilePermissions.fromString(unixSocketMode);
    }

    private static void checkUnixSocket(Path path) {
        if (path == null) {
            return;
        }
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("Unix socket path '" + path + "' must be absolute");
        }
        if (path.getFileName() == null) {
            throw new IllegalArgumentException("Unix socket path '" + path + "' names no file");
        }
        int bytes = path.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_UNIX_SOCKET_PATH_BYTES) {
            throw new IllegalArgumentException("Unix socket path '" + path + "' is " + bytes
                    + " bytes long; the limit is " + MAX_UNIX_SOCKET_PATH_BYTES);
        }
    }

    private static void parseMode(String mode) {
        if (mode == null) {
            throw new IllegalArgumentException("Unix socket mode must be given, for example "
                    + DEFAULT_UNIX_SOCKET_MODE);
        }
        try {
            PosixFilePermissions.fromString(mode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Unix socket mode '" + mode + "': expected 9 characters as ls -l "
                    + "writes them, such as rw-rw---- (r, w, x or - for owner, group, others)", e);
        }
    }

    private static void checkCount(String name, int value) {
        if (value < 1 || value > MAX_COUNT_LIMIT) {
            throw new IllegalArgumentException(name + " " + value + ": must be in 1.." + MAX_COUNT_LIMIT);
        }
    }

    private static void checkTimeout(String name, Duration value) {
        if (value == null || value.toMillis() < 1 || value.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException(name + " " + value + ": must be in 1 ms.." + MAX_TIMEOUT);
        }
    }

    /** The defaults described above. */
    public static ApiConfig defaults() {
        return new ApiConfig(DEFAULT_BIND_ADDRESS, ApiProtocol.DEFAULT_PORT, ApiProtocol.DEFAULT_MAX_FRAME_LENGTH,
                MIB, 4 * MIB, DEFAULT_MAX_CONNECTIONS, DEFAULT_HELLO_TIMEOUT, DEFAULT_PARTIAL_FRAME_TIMEOUT,
                DEFAULT_MAX_REQUESTS_IN_FLIGHT, DEFAULT_MAX_GROUPS_PER_CONNECTION, null, DEFAULT_UNIX_SOCKET_MODE,
                null, ApiAccess.defaults());
    }

    public ApiConfig withBindAddress(String address) {
        return new ApiConfig(address, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withPort(int newPort) {
        return new ApiConfig(bindAddress, newPort, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withMaxFrameLength(int length) {
        return new ApiConfig(bindAddress, port, length, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withWriteBufferWaterMarks(int low, int high) {
        return new ApiConfig(bindAddress, port, maxFrameLength, low, high,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withMaxConnections(int max) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                max, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withHelloTimeout(Duration timeout) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, timeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withPartialFrameTimeout(Duration timeout) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, timeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withMaxRequestsInFlight(int max) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, max, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    public ApiConfig withMaxGroupsPerConnection(int max) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, max,
                unixSocket, unixSocketMode, unixSocketGroup, access);
    }

    /** These settings, listening also on the Unix domain socket at {@code path} (absolute), or on none if null. */
    public ApiConfig withUnixSocket(Path path) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                path, unixSocketMode, unixSocketGroup, access);
    }

    /** These settings with the Unix socket file's permissions {@code mode}, such as {@code rw-rw----}. */
    public ApiConfig withUnixSocketMode(String mode) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, mode, unixSocketGroup, access);
    }

    /**
     * These settings with {@code newAccess}: whether TCP is on, the per-principal quotas and the group allow list.
     * TCP off needs a Unix socket: set {@link #withUnixSocket(Path)} first.
     */
    public ApiConfig withAccess(ApiAccess newAccess) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, unixSocketGroup, newAccess);
    }

    /** These settings with the Unix socket file given to group {@code group}; null keeps the default group. */
    public ApiConfig withUnixSocketGroup(String group) {
        return new ApiConfig(bindAddress, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark,
                maxConnections, helloTimeout, partialFrameTimeout, maxRequestsInFlight, maxGroupsPerConnection,
                unixSocket, unixSocketMode, group, access);
    }
}
