package io.ricochet.fd;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Parses the address forms of the command line: {@code host:port} (an IPv6 host in brackets, {@code [::1]:7200})
 * and {@code id@host:port}. Every refusal is an {@link IllegalArgumentException} whose message says what is wrong
 * with the text, ready to follow the flag's name.
 */
public final class Endpoints {
    /** Detector names: what {@code --id} accepts and {@code id@} may name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private Endpoints() {
    }

    /** {@code host:port} with a port in 1..65535, resolved now. */
    public static InetSocketAddress hostPort(String text) {
        return hostPort(text, 1);
    }

    /** {@code host:port} to bind, where port 0 (any free port) is allowed too. */
    public static InetSocketAddress bindAddress(String text) {
        return hostPort(text, 0);
    }

    /** {@code nodeId@host:port}: a daemon, its node id a 32-bit integer. */
    public static Target daemon(String text) {
        int at = at(text, "nodeId@host:port");
        String id = text.substring(0, at);
        int nodeId;
        try {
            nodeId = Integer.parseInt(id);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("node id '" + id + "' is not a 32-bit integer");
        }
        return Target.daemon(nodeId, hostPort(text.substring(at + 1)));
    }

    /** {@code name@host:port}: a failure detector, named as its {@code --id}. */
    public static Target detector(String text) {
        int at = at(text, "id@host:port");
        return Target.detector(detectorName(text.substring(0, at)), hostPort(text.substring(at + 1)));
    }

    /** A detector name: 1 to 64 of the characters A-Z, a-z, 0-9, '.', '_' and '-'. */
    public static String detectorName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("detector id '" + name
                    + "' must be 1 to 64 characters from A-Z, a-z, 0-9, '.', '_' and '-'");
        }
        return name;
    }

    /** {@code host:port} as the flags take it: {@code 10.0.0.1:7200}, {@code [::1]:7200}; no resolution. */
    public static String format(InetSocketAddress address) {
        String host = address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    private static int at(String text, String form) {
        int at = text.indexOf('@');
        if (at < 1 || at == text.length() - 1) {
            throw new IllegalArgumentException("expected " + form);
        }
        return at;
    }

    private static InetSocketAddress hostPort(String text, int minPort) {
        int colon = text.lastIndexOf(':');
        if (colon < 1 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("an IPv6 host needs brackets: [" + host + "]:port");
        }
        int port = port(text.substring(colon + 1), minPort);
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "'");
        }
    }

    private static int port(String text, int minPort) {
        try {
            int port = Integer.parseInt(text);
            if (port >= minPort && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("port '" + text + "' must be a number in " + minPort + "..65535");
    }
}
