package io.ricochet.qsm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.PacketId;
import java.util.Map;
import java.util.Set;

/**
 * A partition leader's part of a visit of its partition's token, in a split unit (QSM section 3): it takes the
 * partition's collective ACK of each sender up to the leaders' ring (its {@link LeaderState}) and brings the unit's
 * back down, so a sender frees a packet only once the whole unit holds it; it gives the partition an entry for every
 * sender of the unit that is not acknowledged yet (so a lost tail is found here too); it passes up the losses no
 * member of the partition could forward in a round; and it asks the partition's senders for what the whole unit
 * lacks ({@link QsmTokenFlyweight#ASK_ORIGIN}).
 */
final class PartitionLeaderVisit {
    private final int self;
    private final QsmConfig config;
    private final Forwarder forwarder;
    private final Counters counters;

    PartitionLeaderVisit(int self, QsmConfig config, Forwarder forwarder, Counters counters) {
        this.self = self;
        this.config = config;
        this.forwarder = forwarder;
        this.counters = counters;
    }

    /**
     * At the round's end: the minimum is the partition's collective ACK (kept for the leaders' ring); the stable
     * point that releases send buffers is the lower of it and the unit's.
     */
    RoundCloser.StableRule partitionRule(RingUnit unit) {
        return (s, roundMin) -> {
            LeaderState.View v = unit.leader.view(s.origin, unit.members());
            if (v == null) {
                return s.stable;
            }
            v.partitionStable = Math.max(v.partitionStable, roundMin);
            v.highest = Math.max(v.highest, s.highest);
            return Math.max(s.stable, Math.min(roundMin, v.unitStable));
        };
    }

    /** Before this member's own part: drops relays that went round, shares what the leaders' ring said. */
    void before(Token token, RingUnit unit) {
        Set<Integer> partition = unit.local.members();
        token.records.removeIf(r -> !partition.contains(r.missing)); // relays for other partitions: they went round
        LeaderState lead = unit.leader;
        for (Token.Sender s : token.senders) {
            LeaderState.View v = lead.view(s.origin, unit.members());
            if (v != null) {
                v.highest = Math.max(v.highest, s.highest);
                s.highest = v.highest;
            }
        }
        for (Map.Entry<Integer, LeaderState.View> e : lead.views.entrySet()) {
            LeaderState.View v = e.getValue();
            if (!v.incomplete() || token.sender(e.getKey()) != null) {
                continue;
            }
            if (token.senders.size() >= config.maxSenders()) {
                counters.increment(QsmCounter.QSM_SENDERS_FULL);
                break;
            }
            // The round starts here, so the entry sees a whole round: not partial.
            token.senders.add(new Token.Sender(e.getKey(), 0, v.highest, Math.min(v.unitStable, v.highest + 1),
                    Long.MAX_VALUE));
        }
    }

    /** After this member's own part: escalates what the partition could not recover, relays the unit's verdicts. */
    void after(Token token, RingUnit unit) {
        Set<Integer> partition = unit.local.members();
        LeaderState lead = unit.leader;
        lead.settle(token, partition);
        for (Token.Record r : token.records) {
            LeaderState.Key k = LeaderState.Key.of(r);
            if (partition.contains(r.missing) && r.holder == QsmTokenFlyweight.NO_HOLDER && r.rounds >= 1
                    && !lead.escalated.containsKey(k)
                    && lead.escalated.size() < config.maxRecords()) {
                lead.escalated.put(k, new int[1]);
                counters.increment(QsmCounter.QSM_RECORDS_ESCALATED);
            }
        }
        for (LeaderState.Key k : lead.relays) {
            relay(token, k, partition);
        }
        lead.relays.clear();
        // Data seen here during the round may give the partition's token an entry only in the next round.
        lead.partitionBusy = !token.senders.isEmpty() || !token.records.isEmpty() || unit.local.workSinceVisit;
    }

    /** Asks the sender of {@code k}, a member of this partition, to forward it: nobody else in the unit has it. */
    private void relay(Token token, LeaderState.Key k, Set<Integer> partition) {
        counters.increment(QsmCounter.QSM_ORIGIN_ASKED);
        if (k.origin() == self) {
            forwarder.forward(new PacketId(k.origin(), token.group, k.seqno()), k.missing());
            return;
        }
        Token.Record r = token.record(k.origin(), k.seqno(), k.missing());
        if (r != null) {
            if (r.holder == QsmTokenFlyweight.NO_HOLDER) {
                r.holder = QsmTokenFlyweight.ASK_ORIGIN;
            }
        } else if (!partition.contains(k.missing()) && token.records.size() < config.maxRecords()) {
            token.records.add(new Token.Record(k.origin(), k.seqno(), k.missing(), QsmTokenFlyweight.ASK_ORIGIN, 1));
        } else if (!partition.contains(k.missing())) {
            counters.increment(QsmCounter.QSM_RECORDS_FULL); // the leaders' ring asks again next round
        }
    }
}
