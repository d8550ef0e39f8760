package io.ricochet.gms;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What a node's latest REGISTER told the GMS: its unicast {@code address} and the {@code incarnation} of its daemon
 * process. A new incarnation means the daemon restarted (its multicast sequence numbers start again at 0).
 */
record Registration(InetSocketAddress address, long incarnation) {
    Registration {
        Objects.requireNonNull(address, "address");
    }

    /** Whether {@code other} comes from another process than this one. */
    boolean isRestartOf(Registration other) {
        return other != null && other.incarnation != incarnation;
    }
}
