package io.ricochet.control.tls;

import javax.net.ssl.SSLException;

/** Telling TLS failures from other connection errors, and saying what they were in one short line. */
public final class TlsFailures {
    private static final int MAX_DESCRIPTION = 200;

    private TlsFailures() {
    }

    /** Whether {@code cause}, or one of its causes, is a TLS failure (bad handshake, not a TLS record, ...). */
    public static boolean isTls(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * One line for a log: the message of the innermost cause that has one (a PKIX failure says which certificate
     * was not trusted), cut to a readable length. Never a stack trace.
     */
    public static String describe(Throwable cause) {
        String best = null;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                best = t.getMessage();
            }
        }
        if (best == null) {
            return cause == null ? "unknown" : cause.getClass().getSimpleName();
        }
        int newline = best.indexOf('\n');
        String line = newline < 0 ? best : best.substring(0, newline);
        return line.length() <= MAX_DESCRIPTION ? line : line.substring(0, MAX_DESCRIPTION) + "...";
    }
}
