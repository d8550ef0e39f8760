package io.ricochet.gms;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.Register;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GMS in its role towards daemons, at the leader: takes REGISTER, JOIN and LEAVE, checks what can be checked
 * without the state (the session registered as the node it speaks for, the group is this partition's), and hands
 * each to the Raft log ({@link Submitter}); what they change is pushed once committed ({@link LogApplier}).
 *
 * <p>Bounded per session: a session may have asked to be in at most {@code maxGroups} groups of the partition
 * (joined and not left; a join the state refused later still counts, until a LEAVE of it or a new session), so
 * that no daemon, however misconfigured, makes the partition's state grow without end. A JOIN beyond gets ERROR
 * TOO_MANY_GROUPS, before the log, and is counted; the check runs on the leader only and writes nothing to the
 * log, so the replicated state and its commands are unchanged.
 *
 * <p>A REGISTER naming a cluster key that differs from the cluster's is refused (ERROR KEY_MISMATCH, {@link KeyCheck})
 * before the log too. Refusals of REGISTER are rare (one per daemon start), so each is logged at WARN.
 */
final class DaemonRequests {
    /** Puts a request into the partition's log, on behalf of the session of {@code channel}. */
    interface Submitter {
        void submit(Channel channel, ControlMessage request);
    }

    /** The bound of groups per session: that of a daemon's max-groups, so a daemon in bounds never meets it. */
    static final int MAX_GROUPS_PER_SESSION = 65_536;
    /** The groups a session asked to join and did not leave (kept with the channel, gone with it). */
    private static final AttributeKey<Set<Integer>> GROUPS = AttributeKey.valueOf("ricochet.gms.groups");

    private static final Logger LOG = LoggerFactory.getLogger(DaemonRequests.class);

    private final Partitioning partitioning;
    private final SessionTable sessions;
    private final GmsCounters counters;
    private final Submitter log;
    private final int maxGroups;
    private final KeyCheck keys;

    DaemonRequests(Partitioning partitioning, SessionTable sessions, GmsCounters counters, Submitter log) {
        this(partitioning, sessions, counters, log, MAX_GROUPS_PER_SESSION);
    }

    /** @param keys checks the cluster keys each REGISTER names */
    DaemonRequests(Partitioning partitioning, SessionTable sessions, GmsCounters counters, Submitter log,
                   KeyCheck keys) {
        this(partitioning, sessions, counters, log, MAX_GROUPS_PER_SESSION, keys);
    }

    /** @param maxGroups groups one session may be in ({@link #MAX_GROUPS_PER_SESSION} but in tests) */
    DaemonRequests(Partitioning partitioning, SessionTable sessions, GmsCounters counters, Submitter log,
                   int maxGroups) {
        this(partitioning, sessions, counters, log, maxGroups, KeyCheck.unpinned());
    }

    private DaemonRequests(Partitioning partitioning, SessionTable sessions, GmsCounters counters, Submitter log,
                           int maxGroups, KeyCheck keys) {
        this.keys = keys;
        this.partitioning = partitioning;
        this.sessions = sessions;
        this.counters = counters;
        this.log = log;
        this.maxGroups = maxGroups;
    }

    /**
     * Takes a REGISTER, or refuses it (KEY_MISMATCH, counted, before the log: the session stays unregistered) if a
     * key it names differs from the cluster's ({@link KeyCheck}).
     */
    void onRegister(Channel channel, Register register) throws GmsRefusal {
        String keyWarning;
        try {
            keyWarning = keys.check(register);
        } catch (GmsRefusal refusal) {
            counters.increment(GmsCounter.KEY_REFUSALS);
            LOG.warn("REGISTER from {}: {}", channel.remoteAddress(), refusal.getMessage());
            throw refusal;
        }
        if (keyWarning != null) {
            LOG.warn("REGISTER from {}: {}", channel.remoteAddress(), keyWarning);
        }
        sessions.claim(register.nodeId(), channel);
        counters.increment(GmsCounter.REGISTRATIONS);
        log.submit(channel, register);
    }

    void onJoin(Channel channel, Join join) throws GmsRefusal {
        requireRegisteredAs(channel, join.nodeId(), "JOIN");
        MembershipState.requireOwned(partitioning, join.group());
        Set<Integer> groups = groupsOf(channel);
        if (!groups.contains(join.group()) && groups.size() >= maxGroups) {
            counters.increment(GmsCounter.GROUP_LIMIT_REFUSALS);
            throw new GmsRefusal(ErrorCode.TOO_MANY_GROUPS, "node " + join.nodeId() + " is in " + groups.size()
                    + " groups of partition " + partitioning.index() + " on this session, the most the GMS takes; "
                    + "JOIN of group " + join.group() + " refused (lower the daemon's max-groups)");
        }
        groups.add(join.group());
        counters.increment(GmsCounter.JOINS);
        log.submit(channel, join);
    }

    void onLeave(Channel channel, Leave leave) throws GmsRefusal {
        requireRegisteredAs(channel, leave.nodeId(), "LEAVE");
        MembershipState.requireOwned(partitioning, leave.group());
        groupsOf(channel).remove(leave.group());
        counters.increment(GmsCounter.LEAVES);
        log.submit(channel, leave);
    }

    private static Set<Integer> groupsOf(Channel channel) {
        Set<Integer> groups = channel.attr(GROUPS).get();
        if (groups == null) {
            groups = new HashSet<>();
            channel.attr(GROUPS).set(groups);
        }
        return groups;
    }

    private void requireRegisteredAs(Channel channel, int node, String what) throws GmsRefusal {
        Integer registered = sessions.nodeOf(channel);
        if (registered == null || registered != node) {
            throw new GmsRefusal(ErrorCode.NOT_REGISTERED, what + " for node " + node + " on a connection "
                    + (registered == null ? "that has not sent REGISTER" : "registered as node " + registered));
        }
    }
}
