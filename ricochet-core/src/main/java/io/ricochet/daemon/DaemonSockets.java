package io.ricochet.daemon;

import io.ricochet.membership.GroupSockets;
import java.net.InetSocketAddress;

/**
 * The daemon's sockets as the engine driver and the view reconciler use them: {@link DaemonTransport} on real
 * sockets, a recording double in tests. Called on the engine's event loop only.
 */
interface DaemonSockets extends GroupSockets {
    /**
     * Queues a datagram to {@code to}: a node's unicast address, {@code destination} being its node id, or a group's
     * multicast address, {@code destination} being {@link io.ricochet.auth.FrameGuard#NO_DESTINATION} (the frame's
     * seal names its receiver when its type is bound to one).
     */
    void send(InetSocketAddress to, int destination, byte[] frame, int offset, int length);

    /** Sends what {@link #send} queued. */
    void flush();
}
