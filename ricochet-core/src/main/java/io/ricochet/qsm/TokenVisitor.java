package io.ricochet.qsm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.StreamTable;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.Set;
import java.util.function.IntToLongFunction;

/**
 * What a member does with the token of its partition's ring (or of its unsplit unit's) when its hold interval ends
 * (docs/design/qsm.md, "A visit"): the ring leader closes the round (publishes each sender's collective
 * acknowledgement, drops the entries of senders everyone is level with); every member folds what it holds of each
 * sender into the round's minimum, learns the senders' highest seqnos (so a lost tail is found), answers the records
 * of peers' losses it can (forwarding the packet by unicast, at most one forward per record per round), settles its
 * own records and writes its new losses. The sender answers a record of its own packet only when no other member of
 * the unit could: in an unsplit unit when nobody answered in a round, in a split one when its partition leader
 * relays the leaders' verdict ({@link QsmTokenFlyweight#ASK_ORIGIN}). A partition leader also does its part of the
 * hierarchy here ({@link PartitionLeaderVisit}).
 */
final class TokenVisitor {
    private final int self;
    private final QsmConfig config;
    private final StreamTable streams;
    private final MissingTable missing;
    private final Receiver receiver;
    private final SendBuffer sendBuffer;
    private final Forwarder forwarder;
    private final PartitionLeaderVisit leaderVisit;
    private final IntToLongFunction sentTo;
    private final Counters counters;

    TokenVisitor(int self, QsmConfig config, StreamTable streams, MissingTable missing, Receiver receiver,
                 SendBuffer sendBuffer, Forwarder forwarder, IntToLongFunction sentTo, Counters counters) {
        this.self = self;
        this.config = config;
        this.streams = streams;
        this.missing = missing;
        this.receiver = receiver;
        this.sendBuffer = sendBuffer;
        this.forwarder = forwarder;
        this.leaderVisit = new PartitionLeaderVisit(self, config, forwarder, counters);
        this.sentTo = sentTo;
        this.counters = counters;
    }

    /** One visit of {@code token}, the token of {@code unit}'s partition ring, at this member. */
    void visit(Token token, RingUnit unit, long nowNs) {
        boolean leads = unit.leadsPartition();
        if (unit.local.isLeader()) {
            RoundCloser.close(token, leads ? leaderVisit.partitionRule(unit) : RoundCloser.PLAIN);
        }
        if (leads) {
            leaderVisit.before(token, unit);
        }
        senders(token, nowNs);
        Set<PacketId> listed = records(token, unit);
        writeLosses(token, listed);
        if (leads) {
            leaderVisit.after(token, unit);
        }
    }

    /** Folds this member into each sender's entry, and adds its own entry if it sent and has none. */
    private void senders(Token token, long nowNs) {
        int group = token.group;
        long next = sentTo.applyAsLong(group);
        for (Token.Sender s : token.senders) {
            long holds;
            if (s.origin == self) {
                s.highest = Math.max(s.highest, next - 1);
                holds = next;
                int released = sendBuffer.releaseBelow(group, s.stable);
                counters.add(QsmCounter.QSM_BUFFER_RELEASED, released);
            } else {
                holds = reveal(s, group, nowNs);
            }
            s.acc = Math.min(s.acc, Math.min(holds, s.highest + 1));
        }
        if (next > 0 && token.sender(self) == null && sendBuffer.size(group) > 0) {
            if (token.senders.size() < config.maxSenders()) {
                token.senders.add(new Token.Sender(self, QsmTokenFlyweight.PARTIAL, next - 1,
                        sendBuffer.base(group, next), next));
            } else {
                counters.increment(QsmCounter.QSM_SENDERS_FULL);
            }
        }
    }

    /** Discovers what this member misses of {@code s}'s stream up to its highest seqno; returns what it holds. */
    private long reveal(Token.Sender s, int group, long nowNs) {
        StreamTable.Stream stream = streams.find(s.origin, group);
        if (stream == null) {
            return s.highest + 1; // not tracked here (joined after it): this member needs nothing of it
        }
        if (s.highest >= 0) {
            if (stream.window().isJump(s.highest)) {
                counters.increment(EngineCounter.OUT_OF_WINDOW);
            } else {
                long before = counters.get(EngineCounter.LOSSES_DETECTED);
                receiver.discoverUpTo(stream, s.highest, nowNs);
                counters.add(QsmCounter.QSM_LOSSES_FROM_TOKEN, counters.get(EngineCounter.LOSSES_DETECTED) - before);
            }
        }
        return Math.min(stream.window().base(), missing.oldest(s.origin, group));
    }

    /** Settles this member's records and answers the others'; returns the ids of this member's listed losses. */
    private Set<PacketId> records(Token token, RingUnit unit) {
        NavigableSet<Integer> ring = unit.local.members();
        int giveUpAfter = unit.giveUpRounds(config.recoveryRounds());
        Set<PacketId> listed = new HashSet<>();
        for (Iterator<Token.Record> it = token.records.iterator(); it.hasNext(); ) {
            Token.Record r = it.next();
            PacketId id = new PacketId(r.origin, token.group, r.seqno);
            if (!unit.members().contains(r.missing)) {
                it.remove(); // the member that missed it is gone
            } else if (r.missing == self) {
                MissingTable.Loss loss = missing.get(id);
                if (loss == null) {
                    it.remove(); // recovered (or given up) since it was written
                } else if (++loss.rounds > giveUpAfter) {
                    it.remove();
                    receiver.giveUp(id);
                } else {
                    listed.add(id);
                    r.rounds = loss.rounds;
                    if (r.holder != QsmTokenFlyweight.ASK_ORIGIN) {
                        r.holder = QsmTokenFlyweight.NO_HOLDER; // back round without the packet: ask again
                    }
                }
            } else if (r.holder == QsmTokenFlyweight.ASK_ORIGIN) {
                if (r.origin == self && forwarder.forward(id, r.missing)) {
                    r.holder = self;
                }
            } else if (r.holder == QsmTokenFlyweight.NO_HOLDER && ring.contains(r.missing) && mayAnswer(r, unit)
                    && forwarder.forward(id, r.missing)) {
                r.holder = self;
            }
        }
        return listed;
    }

    /** Peers first: the sender answers a plain record only in an unsplit unit, once it went round unanswered. */
    private boolean mayAnswer(Token.Record r, RingUnit unit) {
        return r.origin != self || !unit.split() && r.rounds > 0;
    }

    /** Writes this member's losses not yet in the token, oldest first, while there is room. */
    private void writeLosses(Token token, Set<PacketId> listed) {
        for (MissingTable.Loss loss : missing.ofGroup(token.group)) {
            if (listed.contains(loss.id)) {
                continue;
            }
            if (token.records.size() >= config.maxRecords()) {
                counters.increment(QsmCounter.QSM_RECORDS_FULL);
                continue;
            }
            token.records.add(new Token.Record(loss.id.origin(), loss.id.seqno(), self, QsmTokenFlyweight.NO_HOLDER,
                    loss.rounds));
        }
    }
}
