package io.ricochet.qsm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.PacketId;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * What a partition leader does with the token of the leaders' ring of a split unit (QSM section 3: "neighbors
 * compare ACKs and NAKs collected from partitions they represent, and use these to initiate recovery across
 * partitions and calculate aggregate ACKs/NAKs for the entire region"). The first leader closes the round: each
 * sender's stable point becomes the unit's collective ACK. Every leader folds its partition's collective ACK into
 * each sender's entry (and adds entries for the senders its partition knows of), and learns the unit's. Recovery
 * records name a member of some partition and a packet its whole partition lacked: a leader of another partition
 * that holds the packet forwards it across; a sender that leads answers its own packet only once the record went
 * round unanswered; otherwise the leader of the sender's partition relays the request down to the sender once the
 * record went round unanswered. The leader of the member's partition keeps the record (and drops it once its
 * partition's token no longer names the loss).
 */
final class LeadersVisitor {
    private final int self;
    private final QsmConfig config;
    private final Forwarder forwarder;
    private final Counters counters;

    LeadersVisitor(int self, QsmConfig config, Forwarder forwarder, Counters counters) {
        this.self = self;
        this.config = config;
        this.forwarder = forwarder;
        this.counters = counters;
    }

    void visit(Token token, RingUnit unit) {
        if (unit.upper.isLeader()) {
            RoundCloser.close(token, RoundCloser.PLAIN);
        }
        senders(token, unit);
        records(token, unit);
        if (unit.leader.partitionBusy || unit.local.workSinceVisit || unit.upper.workSinceVisit
                || unit.leader.hasWork()) {
            // A partition at work, or data just seen (its sender's entry reaches this leader within a partition
            // round or two), keeps the leaders' token from parking: parked, only a regeneration would move it.
            token.idleRounds = 0;
        }
    }

    private void senders(Token token, RingUnit unit) {
        LeaderState lead = unit.leader;
        for (Token.Sender s : token.senders) {
            LeaderState.View v = lead.view(s.origin, unit.members());
            long holds = s.stable; // a stranger's entry: this partition vouches for nothing more
            if (v != null) {
                v.highest = Math.max(v.highest, s.highest);
                s.highest = v.highest;
                v.unitStable = Math.max(v.unitStable, s.stable);
                holds = v.partitionHolds();
            }
            s.acc = Math.min(s.acc, Math.min(holds, s.highest + 1));
        }
        int flags = unit.upper.isLeader() ? 0 : QsmTokenFlyweight.PARTIAL;
        for (Map.Entry<Integer, LeaderState.View> e : lead.views.entrySet()) {
            LeaderState.View v = e.getValue();
            if (!v.incomplete() || token.sender(e.getKey()) != null) {
                continue;
            }
            if (token.senders.size() >= config.maxSenders()) {
                counters.increment(QsmCounter.QSM_SENDERS_FULL);
                break;
            }
            long stable = Math.min(v.unitStable, v.highest + 1);
            token.senders.add(new Token.Sender(e.getKey(), flags, v.highest, stable,
                    Math.max(stable, Math.min(v.partitionHolds(), v.highest + 1))));
        }
    }

    private void records(Token token, RingUnit unit) {
        LeaderState lead = unit.leader;
        Set<Integer> partition = unit.local.members();
        Set<LeaderState.Key> listed = new HashSet<>();
        for (Iterator<Token.Record> it = token.records.iterator(); it.hasNext(); ) {
            Token.Record r = it.next();
            LeaderState.Key k = LeaderState.Key.of(r);
            PacketId id = new PacketId(r.origin, token.group, r.seqno);
            if (!unit.members().contains(r.missing)) {
                it.remove();
            } else if (partition.contains(r.missing)) {
                int[] rounds = lead.escalated.get(k);
                if (rounds == null) {
                    it.remove(); // recovered, or given up, in the partition
                    continue;
                }
                if (r.holder == QsmTokenFlyweight.NO_HOLDER && partition.contains(r.origin)) {
                    lead.relay(k, config.maxRecords()); // round the leaders unanswered: only the sender has it
                }
                rounds[0] = Math.min(rounds[0] + 1, 255);
                r.rounds = rounds[0];
                r.holder = QsmTokenFlyweight.NO_HOLDER;
                listed.add(k);
            } else if (r.holder == QsmTokenFlyweight.NO_HOLDER) {
                answer(r, id, partition, lead);
            }
        }
        for (Map.Entry<LeaderState.Key, int[]> e : lead.escalated.entrySet()) {
            LeaderState.Key k = e.getKey();
            if (listed.contains(k)) {
                continue;
            }
            if (token.records.size() >= config.maxRecords()) {
                counters.increment(QsmCounter.QSM_RECORDS_FULL);
                break;
            }
            token.records.add(new Token.Record(k.origin(), k.seqno(), k.missing(), QsmTokenFlyweight.NO_HOLDER,
                    e.getValue()[0]));
        }
    }

    /** Another partition's loss: push the packet across if held here, else relay to the sender if it is here. */
    private void answer(Token.Record r, PacketId id, Set<Integer> partition, LeaderState lead) {
        if (r.origin == self) {
            if (r.rounds > 0 && forwarder.forward(id, r.missing)) {
                r.holder = self; // sender last: no other partition had it in a whole round
            }
        } else if (forwarder.forward(id, r.missing)) {
            counters.increment(QsmCounter.QSM_REPAIRS_ACROSS);
            r.holder = self;
        } else if (r.rounds > 0 && partition.contains(r.origin)) {
            lead.relay(LeaderState.Key.of(r), config.maxRecords());
            r.holder = self;
        }
    }
}
