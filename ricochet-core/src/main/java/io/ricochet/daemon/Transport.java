package io.ricochet.daemon;

import java.net.InetSocketAddress;

/**
 * The daemon's sockets as the engine driver and the view reconciler use them: {@link DaemonTransport} on real
 * sockets, a recording double in tests. Called on the engine's event loop only.
 */
interface Transport {
    /** Queues a datagram to {@code to} (a node's unicast address or a group's multicast address). */
    void send(InetSocketAddress to, byte[] frame, int offset, int length);

    /** Sends what {@link #send} queued. */
    void flush();

    /** Opens the group's socket and joins its multicast address; idempotent. */
    void joinGroup(int group, InetSocketAddress multicast);

    /** Leaves the group's multicast address and closes its socket. */
    void leaveGroup(int group);
}
