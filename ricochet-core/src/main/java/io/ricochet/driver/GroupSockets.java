package io.ricochet.driver;

import java.net.InetSocketAddress;

/** Where a driver opens and closes a group's multicast socket (the daemon's sockets; nothing in a simulation). */
public interface GroupSockets {
    /** Opens the group's socket and joins its multicast address; idempotent. */
    void joinGroup(int group, InetSocketAddress multicast);

    /** Leaves the group's multicast address and closes its socket. */
    void leaveGroup(int group);
}
