package io.ricochet.client;

import io.ricochet.api.protocol.ApiProtocol;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Where a daemon's local API listens: {@code HOST:PORT} ({@code [::1]:7400} for an IPv6 literal), or
 * {@code unix:/path/to/socket} for the daemon's Unix domain socket.
 *
 * @param host       name or address; null for a Unix socket
 * @param port       TCP port, 1..65535; 0 for a Unix socket
 * @param unixSocket absolute path of the Unix socket; null for TCP
 */
public record ApiAddress(String host, int port, Path unixSocket) {
    /** The daemon's default: loopback, port 7400. */
    public static final String DEFAULT = "127.0.0.1:" + ApiProtocol.DEFAULT_PORT;
    /** The prefix of a Unix socket address. */
    public static final String UNIX_PREFIX = "unix:";
    private static final String EXPECTED = "expected HOST:PORT, for example " + DEFAULT + ", or unix:/path/to/socket";

    /** How the address is reached. */
    public enum Kind {
        /** {@code HOST:PORT}. */
        TCP,
        /** {@code unix:/path}. */
        UNIX
    }

    public ApiAddress {
        if (unixSocket != null) {
            if (host != null || port != 0) {
                throw new IllegalArgumentException("a Unix socket address has no host or port");
            }
            if (!unixSocket.isAbsolute()) {
                throw new IllegalArgumentException("the Unix socket path '" + unixSocket + "' must be absolute");
            }
        } else {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("the host is missing");
            }
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("port " + port + " is not in 1..65535");
            }
        }
    }

    /** A TCP address. */
    public ApiAddress(String host, int port) {
        this(host, port, null);
    }

    /** The address of the Unix domain socket at {@code path} (absolute). */
    public static ApiAddress unix(Path path) {
        if (path == null) {
            throw new IllegalArgumentException("the Unix socket path is missing");
        }
        return new ApiAddress(null, 0, path);
    }

    /** {@link Kind#UNIX} if this names a Unix socket, else {@link Kind#TCP}. */
    public Kind kind() {
        return unixSocket != null ? Kind.UNIX : Kind.TCP;
    }

    /**
     * Parses {@code HOST:PORT} or {@code unix:/path/to/socket}.
     *
     * @throws IllegalArgumentException with a message fit for a user if {@code text} is neither
     */
    public static ApiAddress parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException(EXPECTED);
        }
        if (text.startsWith(UNIX_PREFIX)) {
            String path = text.substring(UNIX_PREFIX.length());
            if (path.isEmpty()) {
                throw new IllegalArgumentException("expected unix:/path/to/socket, but the path is missing");
            }
            try {
                return unix(Path.of(path));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("'" + path + "' is not a valid path: " + e.getReason());
            }
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException(EXPECTED);
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new ApiAddress(host, Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port '" + text.substring(colon + 1) + "' is not a number");
        }
    }

    /**
     * Connects to the daemon at this address ({@link RicochetClient#connect(String, int, ClientOptions)}, or
     * {@link RicochetClient#connect(Path, ClientOptions)} for a Unix socket).
     */
    public RicochetClient connect(ClientOptions options) {
        return unixSocket != null ? RicochetClient.connect(unixSocket, options)
                : RicochetClient.connect(host, port, options);
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        if (unixSocket != null) {
            return UNIX_PREFIX + unixSocket;
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
