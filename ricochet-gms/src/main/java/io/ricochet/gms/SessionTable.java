package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.ricochet.control.ControlMessage;
import io.ricochet.control.GroupView;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registered sessions of a partition: node id to its daemon's connection, the latest REGISTER winning. Writes
 * {@link Update}s and views to them; a session that stops reading until its output passes the channel's high
 * water mark is closed (its daemon reconnects and gets a snapshot). Used on the partition's event loop only.
 */
final class SessionTable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionTable.class);
    private static final AttributeKey<Integer> NODE = AttributeKey.valueOf("ricochet.gms.node");

    private final Map<Integer, Channel> byNode = new HashMap<>();
    private final GmsCounters counters;

    SessionTable(GmsCounters counters) {
        this.counters = counters;
    }

    /** Binds {@code channel} to {@code node}, closing an older session of the same node. */
    void bind(int node, Channel channel) {
        Integer previousNode = channel.attr(NODE).getAndSet(node);
        if (previousNode != null && previousNode != node) {
            byNode.remove(previousNode, channel);
        }
        Channel older = byNode.put(node, channel);
        if (older != null && older != channel) {
            LOG.info("node {} registered again from {}; closing its older session from {}", node,
                    channel.remoteAddress(), older.remoteAddress());
            older.attr(NODE).set(null);
            older.close();
        }
    }

    /** Forgets {@code channel} (closed); a newer session of its node stays. */
    void unbind(Channel channel) {
        Integer node = channel.attr(NODE).get();
        if (node != null) {
            byNode.remove(node, channel);
        }
    }

    /** The node {@code channel} registered as, or null. */
    Integer nodeOf(Channel channel) {
        return channel.attr(NODE).get();
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

    int size() {
        return byNode.size();
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
