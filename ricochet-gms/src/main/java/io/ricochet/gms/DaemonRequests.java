package io.ricochet.gms;

import io.netty.channel.Channel;
import io.ricochet.control.ControlMessage;
import io.ricochet.control.ErrorCode;
import io.ricochet.control.Join;
import io.ricochet.control.Leave;
import io.ricochet.control.Partitioning;
import io.ricochet.control.Register;

/**
 * The GMS in its role towards daemons, at the leader: takes REGISTER, JOIN and LEAVE, checks what can be checked
 * without the state (the session registered as the node it speaks for, the group is this partition's), and hands
 * each to the Raft log ({@link Submitter}); what they change is pushed once committed ({@link LogApplier}).
 */
final class DaemonRequests {
    /** Puts a request into the partition's log, on behalf of the session of {@code channel}. */
    interface Submitter {
        void submit(Channel channel, ControlMessage request);
    }

    private final Partitioning partitioning;
    private final SessionTable sessions;
    private final GmsCounters counters;
    private final Submitter log;

    DaemonRequests(Partitioning partitioning, SessionTable sessions, GmsCounters counters, Submitter log) {
        this.partitioning = partitioning;
        this.sessions = sessions;
        this.counters = counters;
        this.log = log;
    }

    void onRegister(Channel channel, Register register) {
        sessions.claim(register.nodeId(), channel);
        counters.increment(GmsCounter.REGISTRATIONS);
        log.submit(channel, register);
    }

    void onJoin(Channel channel, Join join) throws GmsRefusal {
        requireRegisteredAs(channel, join.nodeId(), "JOIN");
        MembershipState.requireOwned(partitioning, join.group());
        counters.increment(GmsCounter.JOINS);
        log.submit(channel, join);
    }

    void onLeave(Channel channel, Leave leave) throws GmsRefusal {
        requireRegisteredAs(channel, leave.nodeId(), "LEAVE");
        MembershipState.requireOwned(partitioning, leave.group());
        counters.increment(GmsCounter.LEAVES);
        log.submit(channel, leave);
    }

    private void requireRegisteredAs(Channel channel, int node, String what) throws GmsRefusal {
        Integer registered = sessions.nodeOf(channel);
        if (registered == null || registered != node) {
            throw new GmsRefusal(ErrorCode.NOT_REGISTERED, what + " for node " + node + " on a connection "
                    + (registered == null ? "that has not sent REGISTER" : "registered as node " + registered));
        }
    }
}
