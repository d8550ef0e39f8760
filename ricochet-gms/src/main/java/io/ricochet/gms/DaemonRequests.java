package io.ricochet.gms;

import io.netty.channel.Channel;
import io.ricochet.control.ErrorCode;
import io.ricochet.control.Join;
import io.ricochet.control.Leave;
import io.ricochet.control.Register;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GMS in its role towards daemons: REGISTER, JOIN and LEAVE. JOIN pushes MEMBER_EVENT(JOIN) to every member
 * (the joiner too) and then sends the joiner a GROUP_VIEW; LEAVE pushes MEMBER_EVENT(LEAVE) to the remaining
 * members and the leaver; REGISTER binds the session, announces a changed address or incarnation (a restarted
 * daemon) to the node's groups with MEMBER_EVENT(JOIN) and sends a snapshot of the node's groups.
 */
final class DaemonRequests {
    private static final Logger LOG = LoggerFactory.getLogger(DaemonRequests.class);

    private final MembershipState state;
    private final SessionTable sessions;
    private final GmsCounters counters;

    DaemonRequests(MembershipState state, SessionTable sessions, GmsCounters counters) {
        this.state = state;
        this.sessions = sessions;
        this.counters = counters;
    }

    void onRegister(Channel channel, Register register) {
        int node = register.nodeId();
        sessions.bind(node, channel);
        counters.increment(GmsCounter.REGISTRATIONS);
        Registration registration = new Registration(register.unicast(), register.incarnation());
        Registration previous = state.registrationOf(node);
        List<Update> updates = state.register(node, registration);
        if (registration.isRestartOf(previous)) {
            LOG.info("node {} restarted (incarnation {}, was {}): {}", node,
                    Long.toUnsignedString(registration.incarnation()), Long.toUnsignedString(previous.incarnation()),
                    state.isFailed(node) ? "failed, so the groups of its old process are forgotten"
                            : "announced again in " + updates.size() + " group(s)");
        }
        updates.forEach(sessions::push);
        state.viewsOf(node).forEach(view -> sessions.sendView(node, view));
    }

    void onJoin(Channel channel, Join join) throws GmsRefusal {
        requireRegisteredAs(channel, join.nodeId(), "JOIN");
        state.join(join.group(), join.nodeId(), join.protocol()).ifPresent(sessions::push);
        counters.increment(GmsCounter.JOINS);
        if (state.isFailed(join.nodeId())) {
            throw new GmsRefusal(ErrorCode.NODE_FAILED, "node " + join.nodeId() + " is failed according to the "
                    + "failure detector; it joins group " + join.group() + " when it recovers");
        }
        state.view(join.group()).ifPresent(view -> sessions.sendView(join.nodeId(), view));
    }

    void onLeave(Channel channel, Leave leave) throws GmsRefusal {
        requireRegisteredAs(channel, leave.nodeId(), "LEAVE");
        state.leave(leave.group(), leave.nodeId()).ifPresent(sessions::push);
        counters.increment(GmsCounter.LEAVES);
    }

    /** Pushes {@code updates} and sends each changed view to the node that recovered. */
    void announceRecovery(int node, List<Update> updates) {
        for (Update update : updates) {
            sessions.push(update);
            sessions.sendView(node, update.view());
        }
    }

    private void requireRegisteredAs(Channel channel, int node, String what) throws GmsRefusal {
        Integer registered = sessions.nodeOf(channel);
        if (registered == null || registered != node) {
            throw new GmsRefusal(ErrorCode.NOT_REGISTERED, what + " for node " + node + " on a connection "
                    + (registered == null ? "that has not sent REGISTER" : "registered as node " + registered));
        }
    }
}
