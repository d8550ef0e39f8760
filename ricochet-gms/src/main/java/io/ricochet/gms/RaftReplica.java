package io.ricochet.gms;

import io.ricochet.control.link.Partitioning;
import io.ricochet.control.tls.PeerIdentity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Apache Ratis server of one GMS replica process: one Raft group per hosted partition (peers: every configured
 * replica), all over one gRPC port (mutual TLS with the cluster's certificates unless insecure), logs and
 * snapshots under the storage directory. A group's id is derived from the partition and the partition count, so
 * every replica names it alike and a restart finds it in its storage; a group not yet in the storage is created
 * on first start.
 *
 * <p>Settings (see {@link RaftSettings} and {@code docs/design/membership.md}): election timeout from the config,
 * pre-vote on (a replica cut off and back does not depose a healthy leader), a snapshot every
 * {@code snapshotEvery} entries, the log purged up to the snapshot, two snapshots kept, room for
 * {@code pendingRequests} uncommitted requests per partition (as many as its {@link RaftWindow} hands it).
 */
final class RaftReplica implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RaftReplica.class);

    private final GmsConfig config;
    private final Path storage;
    private final Map<RaftGroupId, PartitionService> partitions = new HashMap<>();
    private RaftServer server;

    RaftReplica(GmsConfig config, Path storage, List<PartitionService> hosted) {
        this.config = config;
        this.storage = storage;
        hosted.forEach(p -> partitions.put(p.groupId(), p));
    }

    /** The Raft group id of {@code partitioning}'s partition: the same on every replica, run after run. */
    static RaftGroupId groupIdOf(Partitioning partitioning) {
        String name = "ricochet-gms partition " + partitioning.index() + " of " + partitioning.count();
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    void start() throws IOException {
        Replica self = config.replica();
        checkRaftPortFree(self);
        RaftProperties properties = properties(self);
        server = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(self.peerId()))
                .setProperties(properties)
                .setParameters(tlsParameters())
                .setStateMachineRegistry(groupId -> {
                    PartitionService partition = partitions.get(groupId);
                    if (partition == null) {
                        throw new IllegalStateException("the storage holds Raft group " + groupId + ", not a "
                                + "partition of this configuration (" + config.partitions() + " partitions, "
                                + "hosting " + config.hosted() + "): is this the storage of another GMS?");
                    }
                    return partition.stateMachine();
                })
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        server.start();
        partitions.values().forEach(p -> p.attach(server));
        Set<RaftGroupId> existing = new HashSet<>();
        server.getGroupIds().forEach(existing::add);
        List<RaftPeer> peers = config.replicas().stream()
                .map(r -> RaftPeer.newBuilder().setId(r.peerId())
                        .setAddress(new InetSocketAddress(r.host(), r == self ? raftPort() : r.raftPort()))
                        .build())
                .toList();
        long callId = 0;
        for (PartitionService partition : partitions.values()) {
            if (existing.contains(partition.groupId())) {
                LOG.info("partition {}: Raft group {} recovered from {}", partition.partitioning().index(),
                        partition.groupId(), storage);
                continue;
            }
            RaftGroup group = RaftGroup.valueOf(partition.groupId(), peers);
            RaftClientReply reply = server.groupManagement(GroupManagementRequest.newAdd(ClientId.randomId(),
                    server.getId(), callId++, group));
            if (!reply.isSuccess()) {
                throw new IOException("cannot create the Raft group of partition " + partition.partitioning()
                        .index() + ": " + reply.getException());
            }
            LOG.info("partition {}: Raft group {} created with peers {}", partition.partitioning().index(),
                    partition.groupId(), peers);
        }
    }

    /** The address Raft listens on. */
    String raftAddress() {
        return config.replica().host().getHostAddress() + ":" + raftPort();
    }

    @Override
    public void close() {
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                LOG.warn("closing the Raft server: {}", e.toString());
            }
        }
    }

    /**
     * Refuses a Raft port another process holds, on one line naming it: Ratis would log the bind failure with a stack
     * trace and end the JVM itself. Another process may still take the port in between; then Ratis reports it.
     */
    private void checkRaftPortFree(Replica self) throws IOException {
        if (self.raftPort() == 0) {
            return;
        }
        InetSocketAddress address = new InetSocketAddress(self.host(), self.raftPort());
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(address);
        } catch (IOException e) {
            String option = config.replicas().size() == 1 ? "--raft-port" : "its RAFTPORT in --replicas";
            throw new IOException("cannot listen on " + self.host().getHostAddress() + ":" + self.raftPort()
                    + " for Raft (" + option + "): " + e.getMessage(), e);
        }
    }

    private int raftPort() {
        InetSocketAddress bound = server == null ? null : server.getServerRpc().getInetSocketAddress();
        return bound != null ? bound.getPort() : config.replica().raftPort();
    }

    /**
     * With TLS on, every Raft link (replica to replica, both ways) is mutual TLS 1.3 with this replica's certificate,
     * and a peer is taken only with a certificate of the cluster's CA of role gms: nobody else can vote, append to
     * the log or install a snapshot.
     */
    private Parameters tlsParameters() {
        Parameters parameters = new Parameters();
        if (config.tls().enabled()) {
            GrpcTlsConfig tls = new GrpcTlsConfig(config.tls().keyManager(),
                    config.tls().trustManager(PeerIdentity.Role.GMS), true);
            GrpcConfigKeys.TLS.setConf(parameters, tls);
            GrpcConfigKeys.Server.setTlsConf(parameters, tls);
            GrpcConfigKeys.Client.setTlsConf(parameters, tls);
            GrpcConfigKeys.Admin.setTlsConf(parameters, tls);
        }
        return parameters;
    }

    private RaftProperties properties(Replica self) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(p, self.host().getHostAddress());
        GrpcConfigKeys.Server.setPort(p, self.raftPort());
        RaftServerConfigKeys.setStorageDir(p, List.of(storage.toFile()));
        RaftSettings raft = config.raft();
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(raft.electionTimeoutMs(),
                TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2L * raft.electionTimeoutMs(),
                TimeUnit.MILLISECONDS));
        if (config.replicas().size() == 1) {
            // Alone, the replica elects itself: no reason to wait a whole election timeout after start.
            RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, TimeDuration.valueOf(50, TimeUnit.MILLISECONDS));
            RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, TimeDuration.valueOf(100, TimeUnit.MILLISECONDS));
        }
        RaftServerConfigKeys.LeaderElection.setPreVote(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, raft.snapshotEvery());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        // The leader's room for pending requests, the same as each partition's RaftWindow: never refused for room.
        RaftServerConfigKeys.Write.setElementLimit(p, raft.pendingRequests());
        RaftServerConfigKeys.Write.setByteLimit(p, SizeInBytes.valueOf(RaftSettings.PENDING_BYTES));
        return p;
    }
}
