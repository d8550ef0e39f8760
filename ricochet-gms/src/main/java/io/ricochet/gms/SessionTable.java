package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.WatchList;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions of one partition at the replica that leads it. A session gets an id when it is greeted
 * ({@link #open}); the node a REGISTER on it names is {@linkplain #claim claimed} when the REGISTER arrives, so the
 * JOINs behind it are taken, and {@linkplain #bind bound} once the REGISTER is committed: from that point of the log
 * on, the node's updates are pushed to it (the latest REGISTER winning). Writes {@link Update}s and views; a
 * session that stops reading until its output passes the channel's high water mark is closed (its daemon
 * reconnects and gets a snapshot). Used on the partition's event loop only.
 *
 * <p>Session ids go into the Raft log; they start from a random base per process, so an entry a previous run of
 * this replica wrote cannot name a session of this run.
 */
final class SessionTable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionTable.class);
    private static final AttributeKey<Integer> NODE = AttributeKey.valueOf("ricochet.gms.node");
    private static final AttributeKey<Long> SESSION = AttributeKey.valueOf("ricochet.gms.session");
    private static final AttributeKey<String> DETECTOR = AttributeKey.valueOf("ricochet.gms.detector");

    private final Map<Integer, Channel> byNode = new HashMap<>();
    private final Map<String, Channel> byDetector = new HashMap<>();
    private final Map<Long, Channel> bySession = new HashMap<>();
    private final GmsCounters counters;
    private long nextSession = new SecureRandom().nextLong();

    SessionTable(GmsCounters counters) {
        this.counters = counters;
    }

    /** Gives {@code channel} a session id (it was greeted as served by the leader). */
    long open(Channel channel) {
        long id = nextSession++;
        channel.attr(SESSION).set(id);
        bySession.put(id, channel);
        return id;
    }

    /** The session id of {@code channel}, or null if it was not opened. */
    Long sessionOf(Channel channel) {
        return channel.attr(SESSION).get();
    }

    /** Records that {@code channel} speaks for {@code node} (its REGISTER arrived). */
    void claim(int node, Channel channel) {
        channel.attr(NODE).set(node);
    }

    /** The node {@code channel} registered as, or null. */
    Integer nodeOf(Channel channel) {
        return channel.attr(NODE).get();
    }

    /**
     * {@code node}'s REGISTER on {@code session} is committed: its updates go to that session from now on, and an
     * older session of the node is closed. Nothing if the session is gone or now speaks for another node.
     */
    void bind(long session, int node) {
        Channel channel = bySession.get(session);
        if (channel == null || !Integer.valueOf(node).equals(nodeOf(channel))) {
            return;
        }
        Channel older = byNode.put(node, channel);
        if (older != null && older != channel) {
            LOG.info("node {} registered again from {}; closing its older session from {}", node,
                    channel.remoteAddress(), older.remoteAddress());
            older.attr(NODE).set(null);
            older.close();
        }
    }

    /** {@code detector}'s WATCH on {@code session} is committed: its lists go there from now on. */
    void bindDetector(long session, String detector) {
        Channel channel = bySession.get(session);
        if (channel == null) {
            return;
        }
        channel.attr(DETECTOR).set(detector);
        Channel older = byDetector.put(detector, channel);
        if (older != null && older != channel) {
            older.close();
        }
    }

    /** Writes {@code list} to {@code detector}'s session, if it has one. */
    void sendWatchList(String detector, WatchList list) {
        Channel channel = byDetector.get(detector);
        if (channel != null) {
            write(channel, list);
            counters.increment(GmsCounter.WATCH_LISTS_SENT);
        }
    }

    /** Forgets {@code channel} (closed); a newer session of its node stays. */
    void unbind(Channel channel) {
        String detector = channel.attr(DETECTOR).get();
        if (detector != null) {
            byDetector.remove(detector, channel);
        }
        Long session = channel.attr(SESSION).get();
        if (session != null) {
            bySession.remove(session, channel);
        }
        Integer node = channel.attr(NODE).get();
        if (node != null) {
            byNode.remove(node, channel);
        }
    }

    /** The open session {@code session}, or null. */
    Channel channel(long session) {
        return bySession.get(session);
    }

    /** Writes {@code update}'s event to every recipient that has a session. */
    void push(Update update) {
        for (int node : update.recipients()) {
            Channel channel = byNode.get(node);
            if (channel != null) {
                write(channel, update.event());
                counters.increment(GmsCounter.EVENTS_PUSHED);
            }
        }
    }

    /** Writes {@code view} to {@code node}'s session, if it has one. */
    void sendView(int node, GroupView view) {
        Channel channel = byNode.get(node);
        if (channel != null) {
            write(channel, view);
            counters.increment(GmsCounter.VIEWS_SENT);
        }
    }

    /** Writes {@code message} to every open session. */
    void broadcast(ControlMessage message) {
        for (Channel channel : new ArrayList<>(bySession.values())) {
            write(channel, message);
        }
    }

    /** Closes every session (this replica stopped leading the partition: they reconnect to the new leader). */
    void closeAll() {
        for (Channel channel : new ArrayList<>(bySession.values())) {
            channel.close();
        }
    }

    int size() {
        return bySession.size();
    }

    private void write(Channel channel, ControlMessage message) {
        channel.writeAndFlush(message, channel.voidPromise());
        if (!channel.isWritable() && channel.isOpen()) {
            LOG.warn("node {} at {} is not reading its membership updates; closing its session",
                    nodeOf(channel), channel.remoteAddress());
            counters.increment(GmsCounter.SLOW_SESSIONS_CLOSED);
            channel.close();
        }
    }
}
