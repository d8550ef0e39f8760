package io.ricochet.api.server;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The API server could not listen where its {@link ApiConfig} says: on its TCP address, or on its Unix domain
 * socket. {@link #unixSocket()} tells which, so that a caller can name the setting to fix (the daemon names its
 * config key); {@link #reason()} is the reason alone, {@link #getMessage()} the reason after the place.
 */
public final class ApiListenException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path unixSocket;
    private final String reason;

    private ApiListenException(String where, Path unixSocket, String reason, Throwable cause) {
        super("cannot listen on " + where + ": " + reason, cause);
        this.unixSocket = unixSocket;
        this.reason = reason;
    }

    /** A failure to listen on TCP {@code host:port}. */
    static ApiListenException tcp(String host, int port, String reason, Throwable cause) {
        return new ApiListenException(host + ":" + port, null, reason, cause);
    }

    /** A failure to listen on the Unix socket at {@code path}. */
    static ApiListenException unix(Path path, String reason, Throwable cause) {
        return new ApiListenException("Unix socket " + path, path, reason, cause);
    }

    /** The Unix socket that could not be set up, or null if TCP failed. */
    public Path unixSocket() {
        return unixSocket;
    }

    /** Why, without the place. */
    public String reason() {
        return reason;
    }
}
