package io.ricochet.bench.load;

import io.ricochet.control.link.MembershipListener;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a load generator needs from the GMS: for each of its groups, the view that lists it (and so the group's
 * multicast address), the unicast address of every member of those views (where a NAK's answer goes), and at the
 * end the LEAVE events that confirm it is out. Callbacks come on a Netty thread;
 * the waits run on the caller's.
 */
final class GroupViews implements MembershipListener {
    private static final Logger LOG = LoggerFactory.getLogger(GroupViews.class);
    private static final long POLL_MS = 10;

    private final int self;
    private final Map<Integer, InetSocketAddress> multicast = new ConcurrentHashMap<>();
    private final Map<Integer, InetSocketAddress> unicast = new ConcurrentHashMap<>();
    private final Set<Integer> left = ConcurrentHashMap.newKeySet();
    private final Set<Integer> wanted;

    GroupViews(int self, int[] groups) {
        this.self = self;
        this.wanted = new TreeSet<>();
        for (int group : groups) {
            wanted.add(group);
        }
    }

    @Override
    public void onGroupView(GroupView view) {
        if (view.members().containsKey(self) && wanted.contains(view.group())) {
            multicast.put(view.group(), view.multicast());
            unicast.putAll(view.members());
        }
    }

    /**
     * The unicast address node {@code node} registered, as a view of one of our groups listed it, or null. A
     * daemon may send from another port than the one it receives on: answers go here, not to a datagram's source.
     */
    InetSocketAddress unicastOf(int node) {
        return unicast.get(node);
    }

    @Override
    public void onMemberEvent(MemberEvent event) {
        if (event.nodeId() == self && event.kind() != MemberEventKind.JOIN) {
            left.add(event.group());
        }
    }

    @Override
    public void onPartition(int partition, boolean up) {
        // GmsClient logs the transitions.
    }

    @Override
    public void onError(int partition, int code, String message) {
        LOG.warn("GMS partition {} refused a request (code {}): {}", partition, code, message);
    }

    /** Waits until every group's view lists this node; returns group to multicast address. */
    Map<Integer, InetSocketAddress> awaitJoined(Duration timeout) throws InterruptedException, TimeoutException {
        if (!await(() -> multicast.keySet().containsAll(wanted), timeout)) {
            Set<Integer> missing = new TreeSet<>(wanted);
            missing.removeAll(multicast.keySet());
            throw new TimeoutException("no view from the GMS within " + timeout.toSeconds() + " s for groups "
                    + missing);
        }
        return Map.copyOf(multicast);
    }

    /** Waits until the GMS confirmed this node's LEAVE of every group; false on timeout. */
    boolean awaitLeft(Duration timeout) throws InterruptedException {
        return await(() -> left.containsAll(wanted), timeout);
    }

    private static boolean await(BooleanSupplier done, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
        return true;
    }
}
