package io.ricochet.gms;

import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.link.Partitioning;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Raft state machine of one GMS partition (Apache Ratis): applies each committed {@link Command} with a
 * {@link LogApplier} and hands the {@link Effect}s to the partition's sessions ({@link Listener}); writes and loads
 * snapshots of the {@link MembershipState} ({@link MembershipSnapshot}, one file per snapshot in the group's
 * storage directory, with its MD5). Ratis calls apply and snapshot from one thread, in log order.
 */
final class MembershipStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(MembershipStateMachine.class);

    /** Who carries out the effects, and hears of leader changes. */
    interface Listener {
        /** The effects of one committed command, in order; called on Ratis' apply thread. */
        void applied(List<Effect> effects);

        /** The partition's leader is now {@code leader} (null: unknown). */
        void leaderChanged(RaftPeerId leader);
    }

    private final Partitioning partitioning;
    private final MulticastPool pool;
    private final RegionSettings regions;
    private final Listener listener;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private volatile LogApplier applier;
    /** The state's group count after the last apply, for readers on other threads (the state is not shared). */
    private volatile int groupCount;

    MembershipStateMachine(Partitioning partitioning, MulticastPool pool, RegionSettings regions,
                           Listener listener) {
        this.partitioning = partitioning;
        this.pool = pool;
        this.regions = regions;
        this.listener = listener;
        this.applier = new LogApplier(new MembershipState(partitioning, pool, 0, regions));
    }

    /** Groups with members now (any thread; for counters). */
    int groupCount() {
        return groupCount;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        load(storage.getLatestSnapshot());
    }

    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        byte[] bytes = entry.getStateMachineLogEntry().getLogData().toByteArray();
        try {
            listener.applied(applier.apply(Command.fromBytes(bytes)));
        } catch (ControlDecodeException e) {
            // Only this class's own leaders write the log: an entry it cannot read is a bug or another version.
            LOG.error("partition {}: log entry {} is not a command ({}); skipped", partitioning.index(),
                    entry.getIndex(), e.getMessage());
        }
        groupCount = applier.state().groupCount();
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return -1;
        }
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        Path tmp = file.toPath().resolveSibling(file.getName() + ".tmp");
        try (OutputStream os = Files.newOutputStream(tmp);
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os))) {
            MembershipSnapshot.write(applier.state(), partitioning, out);
        }
        Files.move(tmp, file.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), last));
        LOG.debug("partition {}: snapshot at index {} ({} bytes)", partitioning.index(), last.getIndex(),
                file.length());
        return last.getIndex();
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId leader) {
        listener.leaderChanged(leader);
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        File file = snapshot.getFile().getPath().toFile();
        MD5FileUtil.verifySavedMD5(file, MD5FileUtil.computeMd5ForFile(file));
        try (InputStream is = Files.newInputStream(file.toPath());
             DataInputStream in = new DataInputStream(new BufferedInputStream(is))) {
            applier = new LogApplier(MembershipSnapshot.read(in, partitioning, pool, regions));
        }
        groupCount = applier.state().groupCount();
        setLastAppliedTermIndex(snapshot.getTermIndex());
        LOG.info("partition {}: state loaded from the snapshot at index {}: {} group(s)", partitioning.index(),
                snapshot.getIndex(), applier.state().groupCount());
    }
}
