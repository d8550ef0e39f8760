package io.ricochet.membership;

import java.net.InetSocketAddress;

/** Where a driver joins and leaves a group's multicast address (the daemon's sockets; nothing in a simulation). */
public interface GroupSockets {
    /** Joins the group's multicast address, on a socket of the implementation's choosing; idempotent. */
    void joinGroup(int group, InetSocketAddress multicast);

    /** Leaves the group's multicast address (a socket left holding none is closed). */
    void leaveGroup(int group);
}
