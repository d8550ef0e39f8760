package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.ricochet.control.message.ControlMessage;
import java.util.ArrayDeque;

/**
 * Backpressure per session: a session with {@code maxInFlight} requests handed to the Raft log and not yet
 * completed ({@link #started}, {@link #finished}) is no longer read (autoRead off), and the messages it had sent
 * already wait, in order, until some of its requests complete; it is read again once at most half of them are in
 * flight and none waits. So a burst of JOIN/LEAVE is served at the log's pace, every request gets its reply, and
 * the session stays open; what one session holds in memory is bounded (a read's worth of messages). Counted:
 * {@link GmsCounter#SESSION_PAUSES}. Once a message waits, every later one of the session waits behind it (a
 * REGISTER or a LEAVE must not overtake a JOIN). Used on the replica's event loop thread.
 */
final class SessionPacer {
    /** Handles a message of a session that may go on (the session handler's own work). */
    interface Handler {
        void handle(Channel channel, ControlMessage message);
    }

    /** One session's requests in flight and messages waiting. */
    private static final class Backlog {
        final ArrayDeque<ControlMessage> waiting = new ArrayDeque<>();
        int inFlight;
        boolean paused;
        Handler handler;
    }

    private static final AttributeKey<Backlog> BACKLOG = AttributeKey.valueOf("ricochet.gms.backlog");

    private final int maxInFlight;
    private final GmsCounters counters;

    SessionPacer(int maxInFlight, GmsCounters counters) {
        this.maxInFlight = maxInFlight;
        this.counters = counters;
    }

    /** Hands {@code message} to {@code handler} now, or once the session has room (in order, on the event loop). */
    void offer(Channel channel, ControlMessage message, Handler handler) {
        Backlog backlog = backlogOf(channel);
        backlog.handler = handler;
        if (backlog.waiting.isEmpty() && backlog.inFlight < maxInFlight) {
            handler.handle(channel, message);
            return;
        }
        backlog.waiting.add(message);
        if (!backlog.paused) {
            backlog.paused = true;
            counters.increment(GmsCounter.SESSION_PAUSES);
            channel.config().setAutoRead(false);
        }
    }

    /** The session of {@code channel} handed a request to the Raft log. */
    void started(Channel channel) {
        backlogOf(channel).inFlight++;
    }

    /** A request {@link #started} on {@code channel} completed (committed or not): the session may go on. */
    void finished(Channel channel) {
        Backlog backlog = backlogOf(channel);
        backlog.inFlight--;
        if (!channel.isActive()) {
            backlog.waiting.clear();   // nobody to answer; a closed session's unread input is gone as well
            return;
        }
        while (!backlog.waiting.isEmpty() && backlog.inFlight < maxInFlight) {
            backlog.handler.handle(channel, backlog.waiting.poll());
        }
        if (backlog.paused && backlog.waiting.isEmpty() && backlog.inFlight <= maxInFlight / 2) {
            backlog.paused = false;
            channel.config().setAutoRead(true);
        }
    }

    /** Requests of {@code channel}'s session in flight (for tests). */
    int inFlight(Channel channel) {
        Backlog backlog = channel.attr(BACKLOG).get();
        return backlog == null ? 0 : backlog.inFlight;
    }

    private static Backlog backlogOf(Channel channel) {
        Backlog backlog = channel.attr(BACKLOG).get();
        if (backlog == null) {
            backlog = new Backlog();
            channel.attr(BACKLOG).set(backlog);
        }
        return backlog;
    }
}
