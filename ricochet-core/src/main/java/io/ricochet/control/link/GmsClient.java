package io.ricochet.control.link;

import io.netty.channel.EventLoopGroup;
import io.ricochet.control.message.Fields;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Register;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The daemon's side of the group membership service: one reconnecting TCP session per GMS partition, with the
 * partition's leader. Group {@code g} goes to partition {@code Math.floorMod(g, partitions.size())}. Each partition
 * is a list of replicas; the session follows the replicas' SERVING and REDIRECT greetings to the one that leads
 * (see {@link ControlLink}). On every session with a leader the client sends REGISTER and re-sends JOIN for each
 * group of that partition it wants to be in, so a new leader, a GMS restart or a dropped connection restores the
 * membership; it reconnects after 100 ms, doubling to 5 s, and logs "partition i down" / "partition i up" once per
 * transition. See {@code docs/design/membership.md}.
 *
 * <p>Nothing here stops the data path: while a partition is down the daemon keeps the views it has and the client
 * keeps retrying. The listener's callbacks run on the group's event loop threads (see
 * {@link MembershipListener}). All methods may be called from any thread and never block, except {@link #close}.
 */
public final class GmsClient implements AutoCloseable {
    private final List<GmsPartition> partitions = new ArrayList<>();

    /**
     * @param nodeId      this daemon's node id
     * @param unicast     this daemon's unicast IPv4 address and port (repairs, NAKs, retransmissions)
     * @param incarnation this daemon process's incarnation (u64), picked once per process start and sent in every
     *                    REGISTER: a new value tells the GMS, and through it every member, that the daemon
     *                    restarted and its multicast sequence numbers start again at 0
     * @param partitions  per GMS partition, in partition order, its replicas' control addresses (at least one
     *                    each, no address twice; {@link GmsAddresses#oneEach} for an unreplicated GMS)
     * @param listener    hears views, events, partition up/down and errors, on {@code group}'s threads
     * @param group       the event loops to run on (epoll or NIO); the caller owns and shuts it down
     *                    (plaintext sessions: see the constructor that takes a {@link TlsSettings})
     */
    public GmsClient(int nodeId, InetSocketAddress unicast, long incarnation,
                     List<List<InetSocketAddress>> partitions, MembershipListener listener, EventLoopGroup group) {
        this(nodeId, unicast, incarnation, partitions, listener, group, TlsSettings.insecure());
    }

    /**
     * As above, the sessions protected by {@code tls}: mutual TLS with this daemon's certificate (which the GMS
     * accepts only for REGISTER of {@code nodeId}), talking only to a server whose certificate has role gms; or
     * plaintext when {@code tls} is insecure.
     */
    public GmsClient(int nodeId, InetSocketAddress unicast, long incarnation,
                     List<List<InetSocketAddress>> partitions, MembershipListener listener, EventLoopGroup group,
                     TlsSettings tls) {
        this(new Register(nodeId, unicast, incarnation), partitions, listener, group, tls);
    }

    /**
     * As above, registering with {@code registration}: with it the node's rack and heartbeat port, from which the
     * GMS tells the rack's failure detector to watch it.
     */
    public GmsClient(Register registration, List<List<InetSocketAddress>> partitions, MembershipListener listener,
                     EventLoopGroup group, TlsSettings tls) {
        Objects.requireNonNull(listener, "listener");
        List<List<InetSocketAddress>> replicas = GmsAddresses.requireValid(partitions);
        for (int i = 0; i < replicas.size(); i++) {
            ControlLink link = new ControlLink("partition " + i, i, replicas.size(), replicas.get(i), group, tls);
            this.partitions.add(new GmsPartition(i, registration, listener, link));
        }
    }

    /** Connects to every partition (in the background). */
    public void start() {
        partitions.forEach(GmsPartition::start);
    }

    /** Joins {@code group} running {@code protocol} (0..255; {@link Join#PROTOCOL_RICOCHET}); idempotent. */
    public void join(int group, int protocol) {
        Fields.requireU8(protocol, "protocol");
        partitions.get(partitionOf(group)).join(group, protocol);
    }

    /** Leaves {@code group}; a no-op for a group this node is not in. */
    public void leave(int group) {
        partitions.get(partitionOf(group)).leave(group);
    }

    /** The index of the partition that owns {@code group}. */
    public int partitionOf(int group) {
        return Partitioning.partitionOf(group, partitions.size());
    }

    /** Closes every session; membership at the GMS is unchanged (only LEAVE or a failure verdict change it). */
    @Override
    public void close() {
        partitions.forEach(GmsPartition::close);
    }
}
