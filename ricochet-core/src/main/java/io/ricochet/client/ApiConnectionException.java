package io.ricochet.client;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The connection to the daemon could not be opened, or is gone: no request on this client can succeed. */
public final class ApiConnectionException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    public ApiConnectionException(String message, IOException cause) {
        super(message, cause);
    }

    public ApiConnectionException(String message) {
        this(message, new IOException(message));
    }
}
