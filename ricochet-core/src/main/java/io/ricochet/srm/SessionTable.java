package io.ricochet.srm;

import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Session timers, one per group this node is in (SRM's session messages, Floyd et al., section III). A group's
 * timer fires every {@code sessionIntervalNs} on average (jittered by ±50 % so members do not synchronise) while the
 * group is active here, i.e. for about {@code sessionIdleRounds} intervals after this node last sent in it or heard
 * new data in it; then it stops until the next such activity. SRM's session messages never stop; these do so that
 * an idle engine has no timer left (the simulator runs until none is), and an idle group has nothing new to report.
 */
final class SessionTable {
    /** Multicasts the session message of {@code group}. */
    interface Handler {
        void sendSession(int group, long highestSent, long nowNs);
    }

    /** One group's session state. */
    static final class GroupSession extends Deadline {
        final int group;
        long highestSent = SrmSessionFlyweight.NONE;
        long lastActivityNs;

        GroupSession(int group) {
            this.group = group;
        }
    }

    private final SrmConfig config;
    private final RandomGenerator rng;
    private final Map<Integer, GroupSession> groups = new HashMap<>();
    private final DeadlineHeap<GroupSession> timers = new DeadlineHeap<>();

    SessionTable(SrmConfig config, RandomGenerator rng) {
        this.config = config;
        this.rng = rng;
    }

    /** This node sent {@code seqno} in {@code group}. */
    void sent(int group, long seqno, long nowNs) {
        GroupSession session = session(group);
        session.highestSent = seqno;
        activity(session, nowNs);
    }

    /** This node heard new data in {@code group} (matters only when sessions report what was heard). */
    void heard(int group, long nowNs) {
        if (config.sessionReportsHeard()) {
            activity(session(group), nowNs);
        }
    }

    /** This node left {@code group}: stop its timer; its highest seqno sent is kept, as its seqnos continue. */
    void left(int group) {
        GroupSession session = groups.get(group);
        if (session != null) {
            timers.cancel(session);
        }
    }

    private GroupSession session(int group) {
        return groups.computeIfAbsent(group, GroupSession::new);
    }

    private void activity(GroupSession session, long nowNs) {
        session.lastActivityNs = nowNs;
        if (config.sessionsEnabled() && !session.isScheduled()) {
            timers.schedule(session, nowNs + config.sessionDelayNs(rng));
        }
    }

    /** Fires every session timer due at {@code nowNs}; a group idle too long goes quiet instead. */
    void poll(long nowNs, Handler handler) {
        long quietAfterNs = config.sessionIdleRounds() * config.sessionIntervalNs();
        for (GroupSession s = timers.pollDue(nowNs); s != null; s = timers.pollDue(nowNs)) {
            if (nowNs - s.lastActivityNs <= quietAfterNs) {
                timers.schedule(s, nowNs + config.sessionDelayNs(rng));
                handler.sendSession(s.group, s.highestSent, nowNs);
            }
        }
    }

    long nextDeadlineNs() {
        return timers.nextDeadlineNs();
    }
}
