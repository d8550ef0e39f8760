package io.ricochet.daemon;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which of the daemon's group sockets holds which multicast membership: the bookkeeping of {@link DaemonTransport},
 * without sockets. Linux caps the memberships one socket may hold (net.ipv4.igmp_max_memberships, 20 by default,
 * per network namespace), so a node in many groups (Figure 11 sweeps up to 1024) spreads them over
 * {@code ceil(addresses / perSocket)} sockets, each bound to the multicast port. Groups whose addresses coincide
 * (the GMS pool wraps every 65536 groups) share one membership. A socket is taken first-fit, the lowest-numbered one
 * with room; one that loses its last membership is closed. Not thread-safe: the transport uses it on its loop.
 */
final class MembershipTable {
    /** What {@link #join} asks the transport to do. */
    record Join(int socket, boolean newSocket, boolean newMembership) {
    }

    /** What {@link #leave} asks the transport to do. */
    record Leave(int socket, InetSocketAddress address, boolean dropMembership, boolean closeSocket) {
    }

    /** One socket: its port and the addresses it joined, each with how many groups use it. */
    private static final class Socket {
        final int port;
        final Map<InetSocketAddress, Integer> users = new HashMap<>();

        Socket(int port) {
            this.port = port;
        }
    }

    private final int perSocket;
    private final Map<Integer, InetSocketAddress> groups = new HashMap<>();
    private final Map<InetSocketAddress, Integer> socketOfAddress = new HashMap<>();
    private final TreeMap<Integer, Socket> sockets = new TreeMap<>();

    /** @param perSocket memberships one socket may hold, 1 or more */
    MembershipTable(int perSocket) {
        if (perSocket < 1) {
            throw new IllegalArgumentException("memberships per socket must be 1 or more, got " + perSocket);
        }
        this.perSocket = perSocket;
    }

    /** Records that {@code group} uses {@code address}; null if the group was already joined (nothing to do). */
    Join join(int group, InetSocketAddress address) {
        if (groups.containsKey(group)) {
            return null;
        }
        groups.put(group, address);
        Integer held = socketOfAddress.get(address);
        if (held != null) {
            sockets.get(held).users.merge(address, 1, Integer::sum);
            return new Join(held, false, false);
        }
        int id = -1;
        for (Map.Entry<Integer, Socket> e : sockets.entrySet()) {
            if (e.getValue().port == address.getPort() && e.getValue().users.size() < perSocket) {
                id = e.getKey();
                break;
            }
        }
        boolean fresh = id < 0;
        if (fresh) {
            id = lowestFreeId();
            sockets.put(id, new Socket(address.getPort()));
        }
        sockets.get(id).users.put(address, 1);
        socketOfAddress.put(address, id);
        return new Join(id, fresh, true);
    }

    /** Forgets {@code group}; null if it was not joined. */
    Leave leave(int group) {
        InetSocketAddress address = groups.remove(group);
        if (address == null) {
            return null;
        }
        int id = socketOfAddress.get(address);
        Socket socket = sockets.get(id);
        int left = socket.users.merge(address, -1, Integer::sum);
        if (left > 0) {
            return new Leave(id, address, false, false);
        }
        socket.users.remove(address);
        socketOfAddress.remove(address);
        boolean close = socket.users.isEmpty();
        if (close) {
            sockets.remove(id);
        }
        return new Leave(id, address, true, close);
    }

    /** The addresses socket {@code id} holds memberships of (empty if there is no such socket). */
    List<InetSocketAddress> addressesOf(int id) {
        Socket socket = sockets.get(id);
        return socket == null ? List.of() : new ArrayList<>(socket.users.keySet());
    }

    int perSocket() {
        return perSocket;
    }

    /** Whether {@code group} is joined. */
    boolean contains(int group) {
        return groups.containsKey(group);
    }

    int groups() {
        return groups.size();
    }

    int memberships() {
        return socketOfAddress.size();
    }

    int sockets() {
        return sockets.size();
    }

    private int lowestFreeId() {
        int id = 0;
        while (sockets.containsKey(id)) {
            id++;
        }
        return id;
    }
}
