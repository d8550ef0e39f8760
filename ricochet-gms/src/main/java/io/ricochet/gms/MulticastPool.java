package io.ricochet.gms;

import io.ricochet.control.codec.Ipv4;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * The multicast addresses the GMS hands out: a /16 pool, group {@code g} getting
 * {@code base + Math.floorMod(g, 65536)} and the one UDP {@code port}. Groups 65536 apart share an address; the
 * group id in every data packet tells them apart.
 */
public record MulticastPool(Inet4Address base, int port) {
    /** Addresses in the pool. */
    public static final int SIZE = 1 << 16;

    public MulticastPool {
        Objects.requireNonNull(base, "base");
        int bits = Ipv4.toInt(new InetSocketAddress(base, 0));
        if (!base.isMulticastAddress()) {
            throw new IllegalArgumentException("multicast base " + base.getHostAddress()
                    + " is not a multicast address (224.0.0.0/4)");
        }
        if ((bits & (SIZE - 1)) != 0) {
            throw new IllegalArgumentException("multicast base " + base.getHostAddress()
                    + " must end in .0.0: it starts a /16 pool");
        }
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("multicast port must be in 1..65535, got " + port);
        }
    }

    /** The multicast address and port of {@code group}. */
    public InetSocketAddress addressOf(int group) {
        int bits = Ipv4.toInt(new InetSocketAddress(base, 0)) + Math.floorMod(group, SIZE);
        return Ipv4.socketAddress(bits, port);
    }
}
