package io.ricochet.gms;

import io.ricochet.control.link.MembershipListener;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records everything a {@link io.ricochet.control.link.GmsClient} hears, in order, for tests polling from another
 * thread; {@link #members} replays it the way docs/design/membership.md tells a daemon to: a view at or above
 * the held view id replaces the group, an event above it is applied, anything older is ignored.
 */
final class RecordingListener implements MembershipListener {
    private final List<Object> log = new CopyOnWriteArrayList<>();
    /** Each partition's last leader status: the replica, the term and the commit index. */
    final java.util.Map<Integer, Object[]> status = new java.util.concurrent.ConcurrentHashMap<>();
    final List<String> errors = new CopyOnWriteArrayList<>();
    final Map<Integer, Boolean> partitionUp = new ConcurrentHashMap<>();

    @Override
    public void onGroupView(GroupView view) {
        log.add(view);
    }

    @Override
    public void onMemberEvent(MemberEvent event) {
        log.add(event);
    }

    @Override
    public void onLeaderStatus(int partition, InetSocketAddress replica, long term, long commitIndex) {
        status.put(partition, new Object[] {replica, term, commitIndex});
    }

    @Override
    public void onPartition(int partition, boolean up) {
        partitionUp.put(partition, up);
    }

    @Override
    public void onError(int partition, int code, String message) {
        errors.add(partition + ":" + code + ":" + message);
    }

    /** The unicast address test node {@code node} registers. */
    static InetSocketAddress unicast(int node) {
        return new InetSocketAddress("127.0.0.1", 6000 + node);
    }

    /** The incarnation of test node {@code node}'s first daemon process. */
    static long incarnation(int node) {
        return 1_700_000_000_000L + node;
    }

    boolean isUp(int partition) {
        return partitionUp.getOrDefault(partition, false);
    }

    boolean isDown(int partition) {
        return Boolean.FALSE.equals(partitionUp.get(partition));
    }

    List<GroupView> views() {
        return log.stream().filter(GroupView.class::isInstance).map(GroupView.class::cast).toList();
    }

    List<MemberEvent> events() {
        return log.stream().filter(MemberEvent.class::isInstance).map(MemberEvent.class::cast).toList();
    }

    /** The last view of {@code group} received. */
    Optional<GroupView> lastView(int group) {
        return views().stream().filter(v -> v.group() == group).reduce((a, b) -> b);
    }

    /** Whether the last view of {@code group} lists exactly {@code members}. */
    boolean hasView(int group, Set<Integer> members) {
        return lastView(group).map(v -> v.members().keySet().equals(members)).orElse(false);
    }

    /** The members of {@code group} as a daemon would hold them: the views and events received, replayed. */
    Set<Integer> members(int group) {
        return replay(group).members;
    }

    /** The view id a daemon would hold for {@code group}. */
    long viewId(int group) {
        return replay(group).viewId;
    }

    /** The events {@code (kind, group, node)} received, in order. */
    List<MemberEvent> events(MemberEventKind kind, int group, int node) {
        return events().stream().filter(e -> e.kind() == kind && e.group() == group && e.nodeId() == node).toList();
    }

    /** The first event {@code (kind, group, node)} received. */
    Optional<MemberEvent> event(MemberEventKind kind, int group, int node) {
        return events(kind, group, node).stream().findFirst();
    }

    boolean hasEvent(MemberEventKind kind, int group, int node) {
        return event(kind, group, node).isPresent();
    }

    long count(MemberEventKind kind, int group, int node) {
        return events(kind, group, node).size();
    }

    private Replay replay(int group) {
        Replay replay = new Replay();
        for (Object entry : log) {
            if (entry instanceof GroupView v && v.group() == group && v.viewId() >= replay.viewId) {
                replay.viewId = v.viewId();
                replay.members = new TreeSet<>(v.members().keySet());
            } else if (entry instanceof MemberEvent e && e.group() == group && e.viewId() > replay.viewId) {
                replay.viewId = e.viewId();
                if (e.kind() == MemberEventKind.JOIN) {
                    replay.members.add(e.nodeId());
                } else {
                    replay.members.remove(e.nodeId());
                }
            }
        }
        return replay;
    }

    private static final class Replay {
        long viewId = Long.MIN_VALUE;
        Set<Integer> members = new TreeSet<>();
    }

    @Override
    public String toString() {
        return "log=" + log + " errors=" + errors + " partitions=" + partitionUp;
    }
}
