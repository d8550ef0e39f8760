package io.ricochet.gms;

import io.ricochet.control.codec.Ipv4;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One GMS replica process: its {@code id} (1..255, the Raft peer {@code r<id>}), the {@code host} it listens on,
 * the control {@code port} of partition 0 (partition {@code i} is served on {@code port + i}; 0 picks a free port
 * per partition, for a replica alone in its groups) and the TCP port of its Raft traffic, shared by every
 * partition it hosts ({@code raftPort}, 0 = a free port, again only for a replica alone).
 */
public record Replica(int id, InetAddress host, int port, int raftPort) {
    /** The highest replica id. */
    public static final int MAX_ID = 255;

    public Replica {
        Objects.requireNonNull(host, "host");
        Ipv4.require(new InetSocketAddress(host, 0), "replica " + id + "'s host");
        if (id < 1 || id > MAX_ID) {
            throw new IllegalArgumentException("replica id must be in 1.." + MAX_ID + ", got " + id);
        }
        if (port < 0 || port > 0xFFFF || raftPort < 0 || raftPort > 0xFFFF) {
            throw new IllegalArgumentException("replica " + id + ": ports must be in 0..65535, got control " + port
                    + " and raft " + raftPort);
        }
    }

    /** The address this replica serves {@code partition} on (port 0 if it picks a free one). */
    public InetSocketAddress controlAddress(int partition) {
        int p = port == 0 ? 0 : port + partition;
        if (p > 0xFFFF) {
            throw new IllegalArgumentException("replica " + id + ": partition " + partition + " would be served on "
                    + "port " + p + ", above 65535; lower the base port");
        }
        return new InetSocketAddress(host, p);
    }

    /** The Raft peer id of this replica. */
    public String peerId() {
        return "r" + id;
    }

    /** {@code id=host:port:raftPort}, the form {@code --replicas} takes. */
    @Override
    public String toString() {
        return id + "=" + host.getHostAddress() + ":" + port + ":" + raftPort;
    }
}
