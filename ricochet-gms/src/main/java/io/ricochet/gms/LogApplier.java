package io.ricochet.gms;

import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a partition's committed {@link Command}s to its {@link MembershipState} and says what to push
 * ({@link Effect}s), with no I/O: the same log gives the same state and the same effects on every replica.
 *
 * <ul>
 *   <li>REGISTER binds the session to the node, announces a changed address or incarnation (a restarted daemon) to
 *       the node's groups with MEMBER_EVENT(JOIN) and sends the node a view of each of its groups: the snapshot
 *       a daemon resumes from after it reconnects, to this leader or a new one.</li>
 *   <li>JOIN pushes MEMBER_EVENT(JOIN) to every member (the joiner too) and sends the joiner the view; LEAVE pushes
 *       MEMBER_EVENT(LEAVE) to the remaining members and the leaver.</li>
 *   <li>NODE_FAILED removes the node from its groups (MEMBER_EVENT(FAIL)); NODE_RECOVERED puts it back (JOIN to
 *       every member, the view to the node).</li>
 *   <li>WATCH binds a detector's session and sends it its WATCH_LIST; REGISTER (a daemon's rack), WATCH,
 *       DETECTOR_FAILED and DETECTOR_RECOVERED send a new WATCH_LIST to every detector whose list they change
 *       ({@link RackAssignments}).</li>
 * </ul>
 *
 * Each command first raises the view-id floor to the leader's clock, shifted: groups created later start above
 * it, so a group's view ids do not go back even if the partition's replicated state is ever lost entirely.
 */
final class LogApplier {
    private static final Logger LOG = LoggerFactory.getLogger(LogApplier.class);
    /** View ids of new groups start at (leader clock in ms) << 20: 2^20 ids per ms before the clock catches up. */
    static final int VIEW_ID_SHIFT = 20;

    private final MembershipState state;

    LogApplier(MembershipState state) {
        this.state = state;
    }

    MembershipState state() {
        return state;
    }

    List<Effect> apply(Command command) {
        state.raiseViewIdFloor(command.clockMs() << VIEW_ID_SHIFT);
        List<Effect> effects = new ArrayList<>();
        long session = command.session();
        try {
            if (command.request() instanceof Register m) {
                register(session, m, effects);
            } else if (command.request() instanceof Join m) {
                join(session, m, effects);
            } else if (command.request() instanceof Leave m) {
                state.leave(m.group(), m.nodeId()).ifPresent(u -> effects.add(new Effect.Push(u)));
            } else if (command.request() instanceof NodeFailed m) {
                List<Update> updates = state.fail(m.nodeId());
                updates.forEach(u -> effects.add(new Effect.Push(u)));
                LOG.info("node {} failed: removed from {} group(s)", m.nodeId(), updates.size());
            } else if (command.request() instanceof Watch m) {
                watch(session, m, effects);
            } else if (command.request() instanceof DetectorFailed m) {
                LOG.warn("failure detector '{}' failed", m.detectorId());
                changeRacks(effects, () -> state.racks().fail(m.detectorId()));
            } else if (command.request() instanceof DetectorRecovered m) {
                LOG.info("failure detector '{}' recovered", m.detectorId());
                changeRacks(effects, () -> state.racks().recover(m.detectorId()));
            } else if (command.request() instanceof NodeRecovered m) {
                boolean wasFailed = state.isFailed(m.nodeId());
                List<Update> updates = state.recover(m.nodeId());
                for (Update u : updates) {
                    effects.add(new Effect.Push(u));
                    effects.add(new Effect.SendView(m.nodeId(), u.view()));
                }
                if (wasFailed) {
                    LOG.info("node {} recovered: back in {} group(s)", m.nodeId(), updates.size());
                } else {
                    // A detector's first answer from a daemon it was just given: the daemon was not failed.
                    LOG.debug("node {} reported recovered, but it was not failed", m.nodeId());
                }
            }
        } catch (GmsRefusal refusal) {
            effects.add(new Effect.Refuse(session, ErrorReply.truncating(refusal.code(), refusal.getMessage())));
        }
        List<Integer> moved = state.assignRegions();
        return moved.isEmpty() ? effects : withRegions(effects, moved);
    }

    /**
     * The command's effects once the regions of the {@code moved} groups changed: the views it sends of them carry
     * the new regions, and every member of each gets the new view (its members listen on, and send to, the new
     * addresses), once.
     */
    private List<Effect> withRegions(List<Effect> effects, List<Integer> moved) {
        Set<Integer> movedSet = new HashSet<>(moved);
        Set<Long> sent = new HashSet<>();
        List<Effect> out = new ArrayList<>(effects.size());
        for (Effect effect : effects) {
            if (effect instanceof Effect.SendView v && movedSet.contains(v.view().group())) {
                GroupView view = state.view(v.view().group()).orElse(v.view());
                out.add(new Effect.SendView(v.node(), view));
                sent.add(pair(v.node(), view.group()));
            } else if (effect instanceof Effect.Push p && movedSet.contains(p.update().view().group())) {
                Update u = p.update();
                out.add(new Effect.Push(new Update(u.event(), state.view(u.view().group()).orElse(u.view()),
                        u.recipients())));
            } else {
                out.add(effect);
            }
        }
        for (int group : moved) {
            GroupView view = state.view(group).orElseThrow();
            for (int node : view.members().keySet()) {
                if (sent.add(pair(node, group))) {
                    out.add(new Effect.SendView(node, view));
                }
            }
        }
        return out;
    }

    private static long pair(int node, int group) {
        return ((long) node << 32) | (group & 0xFFFFFFFFL);
    }

    private void register(long session, Register m, List<Effect> effects) {
        int node = m.nodeId();
        Registration registration = new Registration(m.unicast(), m.incarnation());
        Registration previous = state.registrationOf(node);
        List<Update> updates = state.register(node, registration);
        if (registration.isRestartOf(previous)) {
            LOG.info("node {} restarted (incarnation {}, was {}): {}", node,
                    Long.toUnsignedString(registration.incarnation()), Long.toUnsignedString(previous.incarnation()),
                    state.isFailed(node) ? "failed, so the groups of its old process are forgotten"
                            : "announced again in " + updates.size() + " group(s)");
        }
        effects.add(new Effect.Bind(session, node));
        updates.forEach(u -> effects.add(new Effect.Push(u)));
        state.viewsOf(node).forEach(view -> effects.add(new Effect.SendView(node, view)));
        changeRacks(effects, () -> state.racks().register(node, m.rack(), m.heartbeat()));
    }

    /** A detector's WATCH: it is served by this session from now on and gets its list, whatever changed. */
    private void watch(long session, Watch m, List<Effect> effects) {
        effects.add(new Effect.BindDetector(session, m.detectorId()));
        changeRacks(effects, () -> state.racks().watch(m.detectorId(), m.rack()));
        WatchList list = state.racks().lists().get(m.detectorId());
        effects.add(new Effect.SendWatchList(m.detectorId(), list));
        LOG.info("failure detector '{}' watches {} ({} daemon(s) now)", m.detectorId(),
                m.rack() == Watch.STANDBY ? "as a standby" : "rack " + m.rack(), list.targets().size());
    }

    /** Applies {@code change} to the rack assignments and sends a new list to every detector whose list moved. */
    private void changeRacks(List<Effect> effects, java.util.function.BooleanSupplier change) {
        SortedMap<String, WatchList> before = state.racks().lists();
        if (!change.getAsBoolean()) {
            return;
        }
        state.racks().lists().forEach((detector, list) -> {
            if (!list.equals(before.get(detector))) {
                effects.add(new Effect.SendWatchList(detector, list));
            }
        });
    }

    private void join(long session, Join m, List<Effect> effects) throws GmsRefusal {
        Optional<Update> update = state.join(m.group(), m.nodeId(), m.protocol());
        update.ifPresent(u -> effects.add(new Effect.Push(u)));
        if (state.isFailed(m.nodeId())) {
            effects.add(new Effect.Refuse(session, new ErrorReply(ErrorCode.NODE_FAILED, "node " + m.nodeId()
                    + " is failed according to the failure detector; it joins group " + m.group()
                    + " when it recovers")));
            return;
        }
        state.view(m.group()).ifPresent(view -> effects.add(new Effect.SendView(m.nodeId(), view)));
    }
}
