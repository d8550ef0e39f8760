package io.ricochet.client;

import io.ricochet.api.protocol.ApiProtocol;

/**
 * Where a daemon's local API listens, written {@code HOST:PORT} ({@code [::1]:7400} for an IPv6 literal).
 *
 * @param host name or address
 * @param port TCP port, 1..65535
 */
public record ApiAddress(String host, int port) {
    /** The daemon's default: loopback, port 7400. */
    public static final String DEFAULT = "127.0.0.1:" + ApiProtocol.DEFAULT_PORT;

    public ApiAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the host is missing");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + " is not in 1..65535");
        }
    }

    /**
     * Parses {@code HOST:PORT}.
     *
     * @throws IllegalArgumentException with a message fit for a user if {@code text} is not that
     */
    public static ApiAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT, for example " + DEFAULT);
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

    /** Connects to the daemon at this address ({@link RicochetClient#connect(String, int, ClientOptions)}). */
    public RicochetClient connect(ClientOptions options) {
        return RicochetClient.connect(host, port, options);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
