package io.ricochet.control.link;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;

/**
 * Which replica of one GMS partition a {@link ControlLink} connects to next. It starts at the first listed replica.
 * A REDIRECT to a leader makes that leader the next target, listed or not (the replicas know the leader's address
 * better than the client's configuration does). A failure (no connection, a closed session, no leader known, a
 * replica that is not a GMS of this partition) moves round robin through the list: to the listed replica after the
 * one the last failure moved to, skipping the target that just failed. Redirects do not move that position, so a
 * stale replica that keeps pointing at a dead leader cannot hold the cursor between the two of them.
 *
 * <p>Redirects are taken at once while there have been no more consecutive ones, without a SERVING or a failure
 * between them, than there are listed replicas; beyond that {@link #redirected} says to wait, so replicas whose
 * stale views point at each other are asked at the reconnect backoff, not in a loop. No I/O; single-threaded.
 */
final class ReplicaCursor {
    private final List<InetSocketAddress> replicas;
    private InetSocketAddress target;
    /** The index of the listed replica the last failure moved to (0 at the start). */
    private int lastListed;
    /** Redirects followed since the last SERVING or failure. */
    private int hops;

    /**
     * @param replicas the partition's replicas: at least one, all different
     */
    ReplicaCursor(List<InetSocketAddress> replicas) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("a GMS partition needs at least one replica address");
        }
        if (new HashSet<>(replicas).size() != replicas.size()) {
            throw new IllegalArgumentException("a replica is listed twice in " + replicas);
        }
        this.replicas = List.copyOf(replicas);
        this.target = this.replicas.get(0);
    }

    /** The replica to connect to (or being connected to). */
    InetSocketAddress target() {
        return target;
    }

    /** The target said SERVING: redirects count from zero again. */
    void serving() {
        hops = 0;
    }

    /** The target could not be reached or did not serve: the next listed replica is the target now. */
    void failed() {
        lastListed = (lastListed + 1) % replicas.size();
        if (replicas.get(lastListed).equals(target) && replicas.size() > 1) {
            lastListed = (lastListed + 1) % replicas.size();
        }
        target = replicas.get(lastListed);
        hops = 0;
    }

    /**
     * The target redirected to {@code leader}, which is the target now. Returns whether to connect at once: true
     * unless this redirect makes more in a row than there are listed replicas.
     */
    boolean redirected(InetSocketAddress leader) {
        hops++;
        target = leader;
        return hops <= replicas.size();
    }

    /** Redirects followed since the last SERVING or failure. */
    int hops() {
        return hops;
    }

    /** The listed replicas, in order. */
    List<InetSocketAddress> replicas() {
        return replicas;
    }
}
