package io.ricochet.qsm;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a partition leader of a split unit knows between visits of its two tokens (QSM section 3): per sender, the
 * highest seqno seen, its partition's collective ACK (the stable point of its last full partition round) and the
 * unit's (from the leaders' token); the losses its partition could not recover, which it carries up to the leaders'
 * ring; and the losses the whole unit lacks whose sender is in its partition, which it relays down to that sender.
 * Bounded: one view per member of the unit, and at most {@code maxRecords} losses each way.
 */
final class LeaderState {
    /** One sender as the leader sees it. */
    static final class View {
        long highest = -1;
        /** Every member of the partition holds every seqno below this; -1 until a full partition round told. */
        long partitionStable = -1;
        /** Every member of the unit holds every seqno below this (the leaders' ring's collective ACK). */
        long unitStable;

        /** Whether the unit has not acknowledged every seqno sent yet. */
        boolean incomplete() {
            return highest >= 0 && unitStable <= highest;
        }

        /** What the partition is known to hold: its stable point, or the unit's before the partition told. */
        long partitionHolds() {
            return partitionStable >= 0 ? partitionStable : unitStable;
        }
    }

    /** One loss of a member, named as the token names it. */
    record Key(int origin, long seqno, int missing) {
        static Key of(Token.Record r) {
            return new Key(r.origin, r.seqno, r.missing);
        }
    }

    final Map<Integer, View> views = new LinkedHashMap<>();
    /** Losses of this partition's members carried in the leaders' token, with the leaders' rounds they waited. */
    final Map<Key, int[]> escalated = new LinkedHashMap<>();
    /** Losses the unit lacks whose sender is in this partition: asked of the sender at the next partition visit. */
    final Set<Key> relays = new LinkedHashSet<>();
    /** Whether this partition's token had sender entries or records at its last visit here. */
    boolean partitionBusy;

    /** The view of {@code origin}, made if {@code origin} is in {@code unit}; null for a stranger. */
    View view(int origin, Set<Integer> unit) {
        View v = views.get(origin);
        if (v == null && unit.contains(origin)) {
            v = new View();
            views.put(origin, v);
        }
        return v;
    }

    /** Asks for {@code k} to be relayed down to its sender, unless {@code bound} requests already wait. */
    void relay(Key k, int bound) {
        if (relays.size() < bound) {
            relays.add(k); // a request left out is made again when the leaders' record comes round unanswered
        }
    }

    /** Whether the leader has something for its rings to do: unacknowledged senders, or losses to pass on. */
    boolean hasWork() {
        if (!escalated.isEmpty() || !relays.isEmpty()) {
            return true;
        }
        for (View v : views.values()) {
            if (v.incomplete()) {
                return true;
            }
        }
        return false;
    }

    /** Stops carrying the escalated losses the partition's token no longer names (recovered or given up). */
    void settle(Token partitionToken, Set<Integer> partition) {
        for (Iterator<Key> it = escalated.keySet().iterator(); it.hasNext(); ) {
            Key k = it.next();
            if (partition.contains(k.missing()) && !partitionToken.hasRecord(k.origin(), k.seqno(), k.missing())) {
                it.remove();
            }
        }
    }

    void clear() {
        views.clear();
        escalated.clear();
        relays.clear();
        partitionBusy = false;
    }
}
