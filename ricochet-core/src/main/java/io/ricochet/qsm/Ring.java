package io.ricochet.qsm;

import java.util.Collections;
import java.util.NavigableSet;

/**
 * One token ring of a group as this member sees it: its members in node-id order (the leader is the lowest; the
 * {@link RingUnit} sets them: a partition, the whole unit, or the partition leaders), the token when this member
 * holds it, and the times that drive it: when the held token is passed on, and when a member with work
 * that has not seen the token for {@code regenerationRounds} rounds makes a new one (staggered by ring position so
 * the first regenerated token normally reaches the others before their own timeouts).
 */
final class Ring {
    final int group;
    /** 0: a partition's ring (or an unsplit unit's); 1: the ring of the partition leaders. */
    final int level;
    private final int self;
    private NavigableSet<Integer> members = Collections.emptyNavigableSet();
    /** The token held here, or null. */
    Token held;
    /** Whether the held token is parked (the leader stopped it: the ring had nothing to do). */
    boolean parked;
    /**
     * Whether data of the group was sent or received here since this member's last visit of the token. A sender
     * that multicasts just after the token left it writes its entry only at the next visit, so a token that looks
     * idle when it reaches the leader may not be: the leader, which saw that data, keeps it moving for one more round
     * instead of parking it (parking it left the sender to regenerate a token after its timeout).
     */
    boolean workSinceVisit;
    long forwardAtNs = Long.MAX_VALUE;
    long lastSeenNs;
    long bestEpoch = -1;
    int bestGenerator = Integer.MIN_VALUE;

    Ring(int group, int level, int self) {
        this.group = group;
        this.level = level;
        this.self = self;
    }

    /** The ring's members from now on (the unit's layout changed). */
    void members(NavigableSet<Integer> ringMembers) {
        members = ringMembers;
    }

    /** Whether this node is a member of the ring's group. */
    boolean isMember() {
        return members.contains(self);
    }

    NavigableSet<Integer> members() {
        return members;
    }

    boolean isLeader() {
        return !members.isEmpty() && members.first() == self;
    }

    /** The member the token goes to after this one (itself when alone). */
    int next() {
        Integer next = members.higher(self);
        return next == null ? members.first() : next;
    }

    /** Whether a token of (epoch, generator) is older than one this member has seen. */
    boolean isStale(long epoch, int generator) {
        return epoch != bestEpoch ? epoch < bestEpoch : generator < bestGenerator;
    }

    /** Takes {@code token} to hold for one interval. */
    void take(Token token, long nowNs, long intervalNs) {
        held = token;
        parked = false;
        bestEpoch = token.epoch;
        bestGenerator = token.generator;
        lastSeenNs = nowNs;
        forwardAtNs = nowNs + intervalNs;
    }

    /** The held token was passed on (or dropped). */
    void release(long nowNs) {
        held = null;
        parked = false;
        lastSeenNs = nowNs;
        forwardAtNs = Long.MAX_VALUE;
    }

    /** Parks the held token: no timer until work arrives. */
    void park() {
        parked = true;
        forwardAtNs = Long.MAX_VALUE;
    }

    /** Work arrived at a parked leader: the token moves again after one interval. */
    void unpark(long nowNs, long intervalNs) {
        if (held != null && parked) {
            parked = false;
            forwardAtNs = nowNs + intervalNs;
        }
    }

    /** When this member makes a new token if it has work and sees none by then. */
    long regenerateAtNs(QsmConfig config) {
        int position = members.headSet(self).size();
        long round = (long) members.size() * config.tokenIntervalNs();
        long wait = Math.max(config.regenerationRounds() * round, config.regenerationFloorNs());
        return lastSeenNs + wait + 2L * position * config.tokenIntervalNs();
    }
}
