package io.ricochet.control.codec;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * IPv4 socket addresses as the control protocol carries them: four address bytes and a u16 port
 * (see {@code docs/design/membership.md}). Nothing here resolves a name.
 */
public final class Ipv4 {
    /** Bytes an address takes on the wire: 4 for the IPv4 address, 2 for the port. */
    public static final int SOCKET_ADDRESS_BYTES = 6;

    private Ipv4() {
    }

    /**
     * Returns {@code address} if it is a resolved IPv4 socket address.
     *
     * @throws IllegalArgumentException naming {@code what} otherwise
     */
    public static InetSocketAddress require(InetSocketAddress address, String what) {
        Objects.requireNonNull(address, what);
        if (!(address.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException(what + " must be a resolved IPv4 address, got " + address);
        }
        return address;
    }

    /** The address bytes of {@code address} (which must be IPv4) as a big-endian int. */
    public static int toInt(InetSocketAddress address) {
        byte[] b = address.getAddress().getAddress();
        return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
    }

    /** The IPv4 address whose bytes are the big-endian {@code address}. */
    public static Inet4Address address(int address) {
        byte[] b = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return (Inet4Address) InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a 4-byte address is always valid", e);
        }
    }

    /** The socket address {@code address:port}; {@code port} must be a u16. */
    public static InetSocketAddress socketAddress(int address, int port) {
        return new InetSocketAddress(address(address), port);
    }
}
