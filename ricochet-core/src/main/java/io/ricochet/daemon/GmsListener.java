package io.ricochet.daemon;

import io.ricochet.api.NodeStats;
import io.ricochet.control.link.MembershipListener;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.ViewRegion;
import io.ricochet.engine.MembershipEvent;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands what the GMS pushes to the engine's thread, in order, dropping stale news: an event must carry a newer
 * view id than the group's last one; a snapshot may carry the same id as the event just before it (the GMS sends
 * the joiner its JOIN event, then the view with the group's multicast address).
 */
final class GmsListener implements MembershipListener {
    private static final Logger LOG = LoggerFactory.getLogger(GmsListener.class);

    private final EngineDriver driver;
    private final Executor loop;
    private final Seen seen;
    private final Map<Integer, Long> lastViewId = new HashMap<>();
    private final Map<Integer, String> lastRefusal = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Integer, NodeStats.GmsLink> links = new java.util.concurrent.ConcurrentHashMap<>();
    /** Completed with the GMS's message when it refuses this daemon's keys (ERROR KEY_MISMATCH). */
    private final CompletableFuture<String> keyMismatch = new CompletableFuture<>();

    /**
     * @param driver the engine's driver, given the news on its loop
     * @param loop   the engine's event loop
     * @param seen   told (on the loop), after each view or event applied, whether this node is in its group:
     *               pending joins complete, leaves in flight end
     */
    GmsListener(EngineDriver driver, Executor loop, Seen seen) {
        this.driver = driver;
        this.loop = loop;
        this.seen = seen;
    }

    /** What a view or event applied says of this node's own membership. */
    @FunctionalInterface
    interface Seen {
        void membership(int group, boolean member);
    }

    @Override
    public void onGroupView(GroupView view) {
        loop.execute(() -> {
            if (view.viewId() < lastViewId.getOrDefault(view.group(), Long.MIN_VALUE)) {
                driver.counters().increment(DaemonCounter.STALE_VIEWS);
                return;
            }
            lastViewId.put(view.group(), view.viewId());
            driver.applyView(view.group(), view.listenAddress(driver.self()), view.destinations(), view.members(),
                    view.incarnations(), view.regions().stream().map(ViewRegion::members).toList());
            seen.membership(view.group(), driver.isMember(view.group()));
        });
    }

    @Override
    public void onMemberEvent(MemberEvent event) {
        loop.execute(() -> {
            if (event.viewId() <= lastViewId.getOrDefault(event.group(), Long.MIN_VALUE)) {
                driver.counters().increment(DaemonCounter.STALE_VIEWS);
                return;
            }
            lastViewId.put(event.group(), event.viewId());
            if (event.kind() == MemberEventKind.FAIL) {
                driver.counters().increment(DaemonCounter.MEMBER_FAILURES);
            }
            driver.applyEvent(toEngine(event), event.address());
            seen.membership(event.group(), driver.isMember(event.group()));
        });
    }

    @Override
    public void onPartition(int partition, boolean up) {
        // GmsClient logs transitions; data keeps flowing in joined groups either way.
        links.compute(partition, (p, link) -> link == null ? new NodeStats.GmsLink(up, null, 0, 0)
                : new NodeStats.GmsLink(up, link.leader(), link.term(), link.commitIndex()));
    }

    @Override
    public void onLeaderStatus(int partition, InetSocketAddress replica, long term, long commitIndex) {
        String leader = replica == null ? null : replica.getAddress().getHostAddress() + ":" + replica.getPort();
        links.put(partition, new NodeStats.GmsLink(replica != null, leader, term, commitIndex));
    }

    /** Each GMS partition's link as last heard, by partition (any thread). */
    Map<Integer, NodeStats.GmsLink> links() {
        return new TreeMap<>(links);
    }

    @Override
    public void onError(int partition, int code, String message) {
        if (code == ErrorCode.KEY_MISMATCH) {
            keyMismatch.complete(message);   // the daemon stops: retrying cannot help, and it would look up
        }
        LOG.warn("GMS partition {} refused a request (code {}): {}", partition, code, message);
        lastRefusal.put(partition, ErrorCode.name(code) + ": " + message);
    }

    /** The GMS's news of one node as the engine takes it. */
    static MembershipEvent toEngine(MemberEvent event) {
        MembershipEvent.Kind kind = switch (event.kind()) {
            case JOIN -> MembershipEvent.Kind.JOIN;
            case LEAVE -> MembershipEvent.Kind.LEAVE;
            case FAIL -> MembershipEvent.Kind.FAIL;
        };
        return new MembershipEvent(kind, event.group(), event.nodeId(), event.incarnation());
    }

    /** Completes with the GMS's message if it refuses this daemon's cluster keys (any thread). */
    CompletableFuture<String> keyMismatch() {
        return keyMismatch;
    }

    /** The last refusal from {@code partition} (e.g. a protocol mismatch), or null: it explains a failed join. */
    String lastRefusal(int partition) {
        return lastRefusal.get(partition);
    }

}
