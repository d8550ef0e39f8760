package io.ricochet.control.link;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.control.codec.ControlPipeline;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Serving;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsFailures;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP session with the leader of a replicated GMS partition, kept for ever. It connects to a replica of the
 * partition ({@link ReplicaCursor} picks which); every replica greets a session with exactly one first message:
 * <ul>
 *   <li>SERVING: this replica leads the partition. Only now is the link up: "{@code <name>} up" at INFO,
 *       {@link Handler#onUp}, the backoff back at 100 ms. Everything after it goes to {@link Handler#onMessage}.
 *   <li>REDIRECT to the leader: the link closes and connects to that leader at once (listed or not), unless it has
 *       followed more redirects in a row than there are replicas (stale views pointing at each other), then after
 *       the backoff.
 *   <li>REDIRECT with no leader (an election is under way): the next replica of the list after 100 ms, the first
 *       {@value #ELECTION_FAST_RETRIES} times since the link was last up, then as below.
 *   <li>Anything else, no greeting within {@value #GREETING_TIMEOUT_MS} ms, a failed connect or a closed session:
 *       the next replica of the list after 100 ms, and after a whole round of the list has failed in a row, after
 *       the backoff, 100 ms doubling to a 5 s cap.
 * </ul>
 * A leader that loses the lead ends the session the same way: it closes, sends REDIRECT, or answers a request
 * with ERROR NOT_LEADER; the link goes down and looks for the new leader.
 * A SERVING for another partition than this link's means the client lists the partitions wrongly: logged at ERROR,
 * told to {@link Handler#onMisconfigured}, and treated as a failed attempt (the link never goes up on it).
 *
 * <p>It logs "{@code <name>} down" at WARN once per transition, the first failed attempt included; the handler hears
 * {@link Handler#onDown} only after an {@link Handler#onUp} (a redirect or a failed attempt before the link was
 * ever up is not a "down"). Everything runs on one event loop taken from the group at construction: the handler's
 * callbacks, and whatever callers hand to {@link #execute}. So a handler's state needs no locks.
 *
 * <p>With TLS on, a session counts only once the handshake has succeeded and the server's certificate has the role
 * {@code gms}; a failed handshake (the server's certificate is from another CA, or expired) or another role counts
 * as a failed attempt, logged at WARN once per transition with the reason.
 */
public final class ControlLink {
    static final long INITIAL_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;
    /**
     * REDIRECTs with no leader (an election under way) answered by a retry after {@link #INITIAL_BACKOFF_MS},
     * without growing the backoff, before the backoff applies: about 3 s of fast retries, several election
     * timeouts, so a daemon finds a new leader within about 100 ms of its election.
     */
    static final int ELECTION_FAST_RETRIES = 30;
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    /** A replica greets at once; one that has not within this (hung, or not a GMS) is left for the next. */
    static final long GREETING_TIMEOUT_MS = 3_000;
    private static final long CLOSE_WAIT_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(ControlLink.class);

    /** What a link's user hears; all on the link's event loop. */
    public interface Handler {
        /** A replica that leads the partition said SERVING; nothing has been sent on the session yet. */
        void onUp();

        /** The leader sent {@code message} (after its SERVING; an ERROR NOT_LEADER ends the session instead). */
        void onMessage(ControlMessage message);

        /** The session with the leader was lost: the first time since the last {@link #onUp}. */
        void onDown();

        /** A replica serves another partition than this link's: {@code problem} says which, for the user. */
        default void onMisconfigured(String problem) {
        }

        /** The leader's GMS_STATUS (term and commit index, for stats); ignored unless the user shows it. */
        default void onStatus(GmsStatus status) {
        }
    }

    private final String name;
    private final int partition;
    private final int partitions;
    private final ReplicaCursor cursor;
    private final EventLoop loop;
    private final EventLoopGroup group;
    private final TlsSettings tls;
    private final Backoff backoff = new Backoff(INITIAL_BACKOFF_MS, MAX_BACKOFF_MS);
    /** REDIRECTs with no leader since the link was last up; the first {@link #ELECTION_FAST_RETRIES} retry fast. */
    private int electionRetries;
    /** Failed attempts in a row (connects, sessions, greetings) since the last full round of the replica list. */
    private int roundFailures;
    private Handler handler;
    /** The open session (TLS checked), awaiting the greeting or serving; null between sessions. */
    private Channel channel;
    /** The replica {@link #channel} is connected to. */
    private InetSocketAddress remote;
    /** Whether {@link #channel}'s replica said SERVING (the link is up). */
    private boolean serving;
    /** Whether the link was up at the last transition: null before the first. */
    private Boolean up;
    private Future<?> retry;
    /** Why the open channel is closing, when this end knows (a TLS alert from the server), else null. */
    private String closeReason;
    /** The last misconfiguration logged at ERROR, so that a retry of the same one is not logged again. */
    private String lastProblem;
    private volatile boolean closed;

    /**
     * @param name       the link's name in logs ("partition 0")
     * @param partition  the partition this link serves: a replica must say SERVING for it
     * @param partitions how many partitions the client knows: a replica must say SERVING for the same count
     * @param replicas   the partition's replicas' control addresses, at least one, all different
     * @param group      the event loops (one is taken for the link); the caller owns and shuts it down
     * @param tls        the mutual TLS of the session, or plaintext when insecure
     */
    public ControlLink(String name, int partition, int partitions, List<InetSocketAddress> replicas,
                       EventLoopGroup group, TlsSettings tls) {
        this.name = name;
        this.partition = partition;
        this.partitions = partitions;
        this.cursor = new ReplicaCursor(replicas);
        this.tls = tls;
        this.group = group;
        this.loop = group.next();
    }

    /** Starts connecting; {@code handler} hears everything from now on. */
    public void start(Handler handler) {
        this.handler = handler;
        execute(this::connect);
    }

    /** Runs {@code task} on the link's event loop (not at all once the group is shut down). */
    public void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("{}: event loop is shut down; task dropped", name);
        }
    }

    /** The replica this link is served by now, or null when it is not up; call on the link's event loop. */
    InetSocketAddress serving() {
        return serving ? remote : null;
    }

    /** The session with the leader if the link is up, else null; call on the link's event loop. */
    public Channel channel() {
        return serving && channel != null && channel.isActive() ? channel : null;
    }

    /** Writes and flushes {@code message} if up; returns whether it was written. On the event loop. */
    public boolean send(ControlMessage message) {
        Channel ch = channel();
        if (ch == null) {
            return false;
        }
        ch.writeAndFlush(message, ch.voidPromise());
        return true;
    }

    /**
     * Runs a user's callback ({@code who}, e.g. "membership listener"); an exception it throws is logged at ERROR and
     * otherwise ignored, so one bad callback does not end the session.
     */
    public void callSafely(String who, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.error("{}: {} threw", name, who, e);
        }
    }

    /** The link's name in logs ("partition 0"). */
    public String name() {
        return name;
    }

    /** Stops reconnecting and closes the connection; waits for that unless called on the event loop. */
    public void close() {
        closed = true;
        try {
            Future<?> done = loop.submit(() -> {
                if (retry != null) {
                    retry.cancel(false);
                }
                if (channel != null) {
                    channel.close();
                }
            });
            if (!loop.inEventLoop()) {
                done.awaitUninterruptibly(CLOSE_WAIT_MS);
            }
        } catch (RejectedExecutionException e) {
            LOG.debug("{}: event loop already shut down", name);
        }
    }

    private void connect() {
        retry = null;
        if (closed) {
            return;
        }
        InetSocketAddress target = cursor.target();
        bootstrap(target).connect().addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                attemptFailed(target, f.cause() == null ? null : f.cause().getMessage());
            } else if (closed) {
                f.channel().close();
            } else if (tls.enabled()) {
                f.channel().pipeline().get(SslHandler.class).handshakeFuture()
                        .addListener(h -> onHandshake(f.channel(), target, h.isSuccess() ? null : h.cause()));
            } else {
                opened(f.channel(), target);
            }
        });
    }

    private Bootstrap bootstrap(InetSocketAddress target) {
        return new Bootstrap()
                .group(loop)
                .channel(TcpChannels.socketChannel(group))
                .remoteAddress(target)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ControlPipeline.installClient(ch, tls, target);
                        ch.pipeline().addLast("control-link", new Inbound());
                    }
                });
    }

    /** After the TLS handshake ({@code failure} null if it succeeded): a session if the server is a GMS. */
    private void onHandshake(Channel ch, InetSocketAddress target, Throwable failure) {
        if (closed) {
            ch.close();
            return;
        }
        PeerIdentity server = failure == null ? PeerIdentity.of(ch) : null;
        if (failure == null && server != null && server.role() == PeerIdentity.Role.GMS) {
            opened(ch, target);
            return;
        }
        ch.close();
        attemptFailed(target, failure != null ? "TLS handshake failed: " + TlsFailures.describe(failure)
                : "the server's certificate is for " + server + ", not a GMS (OU=gms); not talking to it");
    }

    /** A session is open: the replica's greeting decides what it is. */
    private void opened(Channel ch, InetSocketAddress target) {
        channel = ch;
        remote = target;
        serving = false;
        ScheduledFuture<?> greetingTimeout = loop.schedule(() -> {
            if (ch == channel && !serving) {
                endSession();
                attemptFailed(target, "no SERVING or REDIRECT within " + GREETING_TIMEOUT_MS + " ms");
            }
        }, GREETING_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        // Handled in a task of its own: the exception that explains a close (a TLS alert) may be fired just after
        // the close, in the same call, and its reason then goes into the "down" line.
        ch.closeFuture().addListener(c -> {
            greetingTimeout.cancel(false);
            execute(() -> onClosed(ch));
        });
    }

    private void onClosed(Channel closedChannel) {
        if (closedChannel != channel) {
            return;
        }
        String why = closeReason;
        closeReason = null;
        endSession();
        attemptFailed(remote, why);
    }

    /** Forgets the open session (its close, if still to come, is then ignored) and closes it. */
    private void endSession() {
        Channel ch = channel;
        channel = null;
        serving = false;
        if (ch != null) {
            ch.close();
        }
    }

    /** The first message of a session. */
    private void onGreeting(ControlMessage message) {
        InetSocketAddress replica = remote;
        if (message instanceof Serving s) {
            if (s.partition() == partition && s.partitions() == partitions) {
                serving = true;
                cursor.serving();
                lastProblem = null;
                markUp(s);
                return;
            }
            String problem = at(replica) + " serves GMS partition " + s.partition() + " of " + s.partitions()
                    + ", but is listed as a replica of partition " + partition + " of " + partitions
                    + ": list the partitions in partition order, each with its own replicas";
            if (!problem.equals(lastProblem)) {
                lastProblem = problem;
                LOG.error("{}: {}", name, problem);
                handler.onMisconfigured(problem);
            }
            endSession();
            attemptFailed(replica, "serves partition " + s.partition() + " of " + s.partitions());
        } else if (message instanceof Redirect r) {
            onRedirect(r);
        } else {
            LOG.warn("{}: {} greeted with {} instead of SERVING or REDIRECT; not a GMS replica?", name, at(replica),
                    MessageType.name(message.type()));
            endSession();
            attemptFailed(replica, "no SERVING or REDIRECT");
        }
    }

    /** The session's replica does not lead: follow it to the leader, or try the next replica. */
    private void onRedirect(Redirect redirect) {
        InetSocketAddress replica = remote;
        boolean wasUp = serving;
        endSession();
        if (redirect.leader().isEmpty()) {
            // An election is under way and ends within an election timeout or two: try again soon, without
            // growing the backoff, for a while (a partition without a majority would otherwise be polled fast
            // for ever).
            long delayMs = electionRetries++ < ELECTION_FAST_RETRIES ? INITIAL_BACKOFF_MS : backoff.nextDelayMs();
            attemptFailed(replica, "it knows no leader yet (election under way)", delayMs);
            return;
        }
        if (wasUp) {
            markDown(replica, "it no longer leads the partition");
        }
        InetSocketAddress leader = redirect.leader().get();
        if (cursor.redirected(leader)) {
            LOG.info("{}: {} is not the leader; following it to {}", name, at(replica), at(leader));
            execute(this::connect);
        } else {
            long delayMs = backoff.nextDelayMs();
            if (cursor.hops() == cursor.replicas().size() + 1) {
                LOG.warn("{}: {} redirects in a row without reaching the leader (the replicas disagree on who "
                        + "leads); following them every {}..{} ms", name, cursor.hops(), INITIAL_BACKOFF_MS,
                        MAX_BACKOFF_MS);
            }
            LOG.debug("{}: {} is not the leader; following it to {} in {} ms", name, at(replica), at(leader),
                    delayMs);
            scheduleConnect(delayMs);
        }
    }

    /** An attempt at {@code replica} failed ({@code why} null when the session just closed): next replica, later. */
    private void attemptFailed(InetSocketAddress replica, String why) {
        // One failed replica says little while others may be alive: the next one is tried after 100 ms; the
        // backoff grows once a whole round of the list has failed in a row (a dead leader is found out fast).
        long delayMs;
        if (++roundFailures < cursor.replicas().size()) {
            delayMs = INITIAL_BACKOFF_MS;
        } else {
            roundFailures = 0;
            delayMs = backoff.nextDelayMs();
        }
        attemptFailed(replica, why, delayMs);
    }

    private void attemptFailed(InetSocketAddress replica, String why, long delayMs) {
        if (closed) {
            return;
        }
        markDown(replica, why);
        cursor.failed();
        scheduleConnect(delayMs);
    }

    private void scheduleConnect(long delayMs) {
        if (!closed) {
            retry = loop.schedule(this::connect, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Up, and the backoff back at its start. (A server that refuses this end's certificate never says SERVING: TLS
     * holds its first write until the handshake, the client's certificate checked, is done.)
     */
    private void markUp(Serving greeting) {
        backoff.reset();
        electionRetries = 0;
        roundFailures = 0;
        up = Boolean.TRUE;
        LOG.info("{} up ({}, leader of term {})", name, at(remote), greeting.term());
        handler.onUp();
    }

    private void markDown(InetSocketAddress replica, String why) {
        if (up == Boolean.FALSE) {
            LOG.debug("{}: still down: {}: {}", name, at(replica), why == null ? "closed" : why);
            return;
        }
        boolean wasUp = up == Boolean.TRUE;
        up = Boolean.FALSE;
        LOG.warn("{} down ({}{}); retrying every {}..{} ms", name, at(replica),
                why == null ? ", connection closed" : ": " + why, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS);
        if (wasUp) {
            handler.onDown();
        }
    }

    private static String at(InetSocketAddress address) {
        return GmsAddresses.format(address);
    }

    /** Greets, then hands messages to the handler; closes on anything malformed or broken (the link then moves). */
    private final class Inbound extends SimpleChannelInboundHandler<ControlMessage> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ControlMessage message) {
            if (ctx.channel() != channel) {
                return;
            }
            if (!serving) {
                onGreeting(message);
                return;
            }
            if (message instanceof Redirect r) {
                onRedirect(r);
            } else if (message instanceof ErrorReply error && error.code() == ErrorCode.NOT_LEADER) {
                // The request changed nothing; the next leader hears it again (the handler re-sends on onUp).
                InetSocketAddress replica = remote;
                endSession();
                attemptFailed(replica, "it lost the lead: " + error.message());
            } else if (message instanceof Serving) {
                LOG.debug("{}: a second SERVING from {}; ignored", name, at(remote));
            } else if (message instanceof GmsStatus status) {
                handler.onStatus(status);
            } else {
                handler.onMessage(message);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ControlPipeline.isMalformedInput(cause)) {
                LOG.warn("{}: malformed frame from {}: {}; reconnecting", name, ctx.channel().remoteAddress(),
                        ControlPipeline.describe(cause));
            } else if (TlsFailures.isTls(cause)) {
                // In TLS 1.3 a server that refuses this end's certificate (expired, say) says so after the client
                // finished its handshake: the alert arrives here, and the "down" line gives it as the reason.
                String why = "TLS: " + TlsFailures.describe(cause);
                if (ctx.channel() == channel) {
                    closeReason = why;
                }
                LOG.debug("{}: {}", name, why);
            } else {
                LOG.debug("{}: connection error: {}", name, cause.toString());
            }
            ctx.close();
        }
    }
}
