package io.ricochet.daemon;

import java.net.InetSocketAddress;

/**
 * The one-line error of a daemon socket that cannot be bound: which socket, where, the settings that say where, the
 * system's reason, and what to change. The two usual reasons get their own advice: the port is taken (by another
 * daemon on the host, most often) or the address is not one of this host's.
 */
final class BindFailure {
    private BindFailure() {
    }

    /**
     * @param socket   what the socket is for, e.g. "the unicast socket"
     * @param address  where it was to be bound
     * @param settings the keys that set that address, e.g. "address, unicast-port"
     * @param cause    why the bind failed
     */
    static IllegalStateException of(String socket, InetSocketAddress address, String settings, Throwable cause) {
        String reason = String.valueOf(cause.getMessage());
        String where = address.getAddress().getHostAddress() + ":" + address.getPort();
        String advice;
        if (reason.contains("Address already in use")) {
            advice = "another process (another daemon on this host?) uses " + where + ": stop it or change "
                    + settings;
        } else if (reason.contains("Cannot assign requested address")) {
            advice = address.getAddress().getHostAddress() + " is not an address of this host: set address to one of "
                    + "the interface's addresses";
        } else {
            advice = "check " + settings;
        }
        return new IllegalStateException("cannot bind " + socket + " to " + where + " (" + settings + "): " + reason
                + "; " + advice, cause);
    }
}
