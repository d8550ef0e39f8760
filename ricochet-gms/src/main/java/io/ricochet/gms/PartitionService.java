package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Serving;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition at one replica: the sessions of its control port, and the link between them and the partition's
 * Raft group. A session is greeted with SERVING when this replica is the partition's leader (and ready: it has
 * committed an entry of its term), else with REDIRECT to the leader's control address (or to nobody during an
 * election) and closed. Requests go into the log ({@link #submit}); committed ones come back as {@link Effect}s
 * ({@link #applied}), carried out on the sessions in log order. When this replica stops leading, it closes every
 * session: the daemons reconnect, are redirected to the new leader, register there and resume from its views.
 * Sessions, effects and counters live on one event loop.
 *
 * <p>Requests go to Ratis through a {@link RaftWindow} no larger than what the leader takes, so a burst waits its
 * turn instead of being refused (which would end its session), and each session has at most
 * {@link FrontDoorSettings#sessionRequestsInFlight} of them in flight before it is no longer read
 * ({@link SessionPacer}).
 */
final class PartitionService implements MembershipStateMachine.Listener, GmsSessionHandler.Greeter,
        DaemonRequests.Submitter {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionService.class);

    private final Partitioning partitioning;
    private final GmsConfig config;
    private final RaftGroupId groupId;
    private final EventLoop loop;
    private final SessionTable sessions;
    private final GmsCounters counters;
    private final ClientId clientId = ClientId.randomId();
    /**
     * Hands requests to Ratis in arrival order, off the event loop: appending to the log may wait (a full queue of
     * pending requests, a slow disk), and the sessions must not wait with it.
     */
    private final ExecutorService submitter;
    private final MembershipStateMachine stateMachine;
    private final RaftWindow window;
    private final SessionPacer pacer;
    private volatile RaftServer server;
    private long nextCall;
    private boolean leading;
    private long lastPushedCommit = -1;

    PartitionService(Partitioning partitioning, GmsConfig config, RaftGroupId groupId, EventLoop loop,
                     GmsCounters counters) {
        this.partitioning = partitioning;
        this.config = config;
        this.groupId = groupId;
        this.loop = loop;
        this.counters = counters;
        this.sessions = new SessionTable(counters);
        this.stateMachine = new MembershipStateMachine(partitioning, config.multicast(), config.regions(), this);
        this.window = new RaftWindow(config.raft().pendingRequests(), RaftSettings.PENDING_BYTES, counters);
        this.pacer = new SessionPacer(config.frontDoor().sessionRequestsInFlight(), counters);
        this.submitter = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "gms-p" + partitioning.index() + "-submit");
            t.setDaemon(true);
            return t;
        });
    }

    /** Stops handing requests to Ratis (the replica is closing). */
    void close() {
        submitter.shutdownNow();
    }

    MembershipStateMachine stateMachine() {
        return stateMachine;
    }

    RaftGroupId groupId() {
        return groupId;
    }

    Partitioning partitioning() {
        return partitioning;
    }

    SessionTable sessions() {
        return sessions;
    }

    /** Holds back the messages of a session with too many requests in flight. */
    SessionPacer pacer() {
        return pacer;
    }

    /** The Raft server hosting this partition's group, once it runs. */
    void attach(RaftServer raftServer) {
        this.server = raftServer;
    }

    /** This replica's view of the partition's Raft group, or null before it runs. */
    DivisionInfo raftInfo() {
        RaftServer s = server;
        if (s == null) {
            return null;
        }
        try {
            return s.getDivision(groupId).getInfo();
        } catch (IOException e) {
            return null;
        }
    }

    /** The partition's commit index at this replica, or -1. */
    long commitIndex() {
        RaftServer s = server;
        try {
            return s == null ? -1 : s.getDivision(groupId).getRaftLog().getLastCommittedIndex();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void greet(Channel channel) {
        DivisionInfo info = raftInfo();
        if (info != null && info.isLeader() && info.isLeaderReady()) {
            leading = true;
            sessions.open(channel);
            channel.writeAndFlush(new Serving(partitioning.index(), partitioning.count(), info.getCurrentTerm()),
                    channel.voidPromise());
            channel.writeAndFlush(new GmsStatus(info.getCurrentTerm(), commitIndex()), channel.voidPromise());
            return;
        }
        counters.increment(GmsCounter.REDIRECTS);
        Redirect redirect = leaderAddress(info == null ? null : info.getLeaderId());
        LOG.debug("partition {}: session from {} redirected to {}", partitioning.index(), channel.remoteAddress(),
                redirect.leader().map(Object::toString).orElse("nobody (no leader yet)"));
        channel.writeAndFlush(redirect).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Tells every session the term and commit index if the commit index moved since the last time (called once a
     * second on the event loop), for the clients' stats.
     */
    void pushStatus() {
        DivisionInfo info = raftInfo();
        long commit = commitIndex();
        if (!leading || info == null || commit == lastPushedCommit) {
            return;
        }
        lastPushedCommit = commit;
        sessions.broadcast(new GmsStatus(info.getCurrentTerm(), commit));
    }

    @Override
    public void submit(Channel channel, ControlMessage request) {
        Long session = sessions.sessionOf(channel);
        RaftServer s = server;
        if (session == null || s == null) {
            channel.close();
            return;
        }
        byte[] bytes = new Command(session, System.currentTimeMillis(), request).toBytes();
        RaftClientRequest raftRequest = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(s.getId())
                .setGroupId(groupId)
                .setCallId(nextCall++)
                .setMessage(Message.valueOf(ByteString.copyFrom(bytes)))
                .setType(RaftClientRequest.writeRequestType())
                .build();
        pacer.started(channel);
        window.submit(bytes.length, () -> send(s, raftRequest, bytes.length, channel, request));
    }

    /** Hands {@code raftRequest} to Ratis off the event loop; its outcome comes back to {@link #completed}. */
    private void send(RaftServer s, RaftClientRequest raftRequest, int size, Channel channel,
                      ControlMessage request) {
        try {
            submitter.execute(() -> {
                try {
                    s.submitClientRequestAsync(raftRequest).whenComplete((reply, failure) ->
                            execute(() -> completed(size, channel, request, reply, failure)));
                } catch (IOException e) {
                    execute(() -> completed(size, channel, request, null, e));
                }
            });
        } catch (RejectedExecutionException e) {
            // Closing. Not at once: completing hands the next waiting request here, and so on down the stack.
            execute(() -> completed(size, channel, request, null, e));
        }
    }

    private void completed(int size, Channel channel, ControlMessage request, RaftClientReply reply,
                           Throwable failure) {
        window.release(size);
        onSubmitted(channel, request, reply, failure);
        pacer.finished(channel);
    }

    @Override
    public void applied(List<Effect> effects) {
        if (!effects.isEmpty()) {
            execute(() -> effects.forEach(this::carryOut));
        }
    }

    @Override
    public void leaderChanged(RaftPeerId leader) {
        execute(() -> {
            boolean self = leader != null && leader.toString().equals(config.replica().peerId());
            LOG.info("partition {}: leader is now {}", partitioning.index(),
                    leader == null ? "unknown" : leader + (self ? " (this replica)" : ""));
            if (!self && leading) {
                leading = false;
                LOG.info("partition {}: no longer the leader; closing {} session(s), they reconnect to the new one",
                        partitioning.index(), sessions.size());
                sessions.closeAll();
            }
        });
    }

    private void carryOut(Effect effect) {
        if (effect instanceof Effect.Bind b) {
            sessions.bind(b.session(), b.node());
        } else if (effect instanceof Effect.Push p) {
            sessions.push(p.update());
        } else if (effect instanceof Effect.SendView v) {
            sessions.sendView(v.node(), v.view());
        } else if (effect instanceof Effect.BindDetector b) {
            sessions.bindDetector(b.session(), b.detector());
        } else if (effect instanceof Effect.SendWatchList w) {
            sessions.sendWatchList(w.detector(), w.list());
        } else if (effect instanceof Effect.Refuse r) {
            Channel channel = sessions.channel(r.session());
            if (channel != null) {
                counters.increment(GmsCounter.ERRORS_SENT);
                channel.writeAndFlush(r.error(), channel.voidPromise());
            }
        }
    }

    /** A request the log did not take (this replica lost the lead, or is closing): the session goes. */
    private void onSubmitted(Channel channel, ControlMessage request, RaftClientReply reply, Throwable failure) {
        if (failure == null && reply.isSuccess()) {
            return;
        }
        Object why = failure != null ? failure : reply.getException();
        counters.increment(GmsCounter.UNCOMMITTED);
        LOG.info("partition {}: {} from {} was not committed ({}); closing that session, it reconnects to the "
                + "leader and sends it again", partitioning.index(), request, channel.remoteAddress(), why);
        if (channel.isOpen()) {
            channel.writeAndFlush(ErrorReply.truncating(ErrorCode.NOT_LEADER, "not committed: " + why))
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }

    private Redirect leaderAddress(RaftPeerId leader) {
        if (leader == null) {
            return Redirect.unknown();
        }
        for (Replica r : config.replicas()) {
            if (r.peerId().equals(leader.toString()) && r.id() != config.self() && r.port() != 0) {
                InetSocketAddress address = r.controlAddress(partitioning.index());
                return Redirect.to(address);
            }
        }
        return Redirect.unknown();
    }

    private void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("partition {}: event loop shut down; task dropped", partitioning.index());
        }
    }
}
