package io.ricochet.metrics;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.util.Objects;

/**
 * Where a server's Prometheus endpoint listens: an address and a TCP port, port 0 meaning no endpoint at all (the
 * default). The address is 127.0.0.1 unless told otherwise: the endpoint has no authentication, so it belongs on
 * loopback or a management network.
 *
 * @param address the address to bind
 * @param port    the TCP port, 1..65535, or 0: off
 */
public record MetricsBind(InetAddress address, int port) {
    /** The address bound unless another is given. */
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    /** No endpoint. */
    public static final MetricsBind OFF = new MetricsBind(InetAddresses.forString(DEFAULT_ADDRESS), 0);

    public MetricsBind {
        Objects.requireNonNull(address, "address");
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("must be in 1..65535, or 0 for no metrics endpoint");
        }
    }

    /**
     * Parses the two settings, each error naming the setting it is about.
     *
     * @param address     an IP address literal (nothing is looked up in DNS)
     * @param port        the port, 0 for off
     * @param addressName the setting's name for messages, e.g. {@code metrics-address} or {@code --metrics-address}
     * @param portName    likewise for the port
     * @throws IllegalArgumentException saying which setting is wrong and what it accepts
     */
    public static MetricsBind parse(String address, int port, String addressName, String portName) {
        InetAddress ip;
        try {
            ip = InetAddresses.forString(address.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(addressName + " = " + address + ": not an IP address literal (for "
                    + "example 127.0.0.1, or this host's address on a management network)");
        }
        try {
            return new MetricsBind(ip, port);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(portName + " = " + port + ": " + e.getMessage());
        }
    }

    /** Whether there is an endpoint. */
    public boolean enabled() {
        return port != 0;
    }

    /** {@code address:port}, IPv6 in brackets, or {@code off}. */
    public String describe() {
        if (!enabled()) {
            return "off";
        }
        return InetAddresses.toUriString(address) + ":" + port;
    }
}
