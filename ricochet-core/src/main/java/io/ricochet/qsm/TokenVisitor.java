package io.ricochet.qsm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.QsmTokenFlyweight;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.Set;
import java.util.function.IntToLongFunction;

/**
 * What a member does with the token of one of its groups when its hold interval ends (docs/design/qsm.md, "A
 * visit"): the ring leader closes the round (publishes each sender's collective acknowledgement, drops the entries
 * of senders everyone is level with); every member folds what it holds of each sender into the round's minimum,
 * learns the senders' highest seqnos (so a lost tail is found), answers the records of peers' losses it can
 * (forwarding the packet by unicast, at most one forward per record per round, the sender itself only when no peer
 * answered in a round), settles its own records and writes its new losses.
 */
final class TokenVisitor {
    private final int self;
    private final QsmConfig config;
    private final StreamTable streams;
    private final MissingTable missing;
    private final Receiver receiver;
    private final PacketStore cache;
    private final SendBuffer sendBuffer;
    private final IntToLongFunction sentTo;
    private final Counters counters;
    private final Outbox outbox;
    private final byte[] frame;
    private final DataFlyweight forward = new DataFlyweight();

    TokenVisitor(int self, QsmConfig config, StreamTable streams, MissingTable missing, Receiver receiver,
                 PacketStore cache, SendBuffer sendBuffer, IntToLongFunction sentTo, Counters counters,
                 Outbox outbox) {
        this.self = self;
        this.config = config;
        this.streams = streams;
        this.missing = missing;
        this.receiver = receiver;
        this.cache = cache;
        this.sendBuffer = sendBuffer;
        this.sentTo = sentTo;
        this.counters = counters;
        this.outbox = outbox;
        this.frame = new byte[DataFlyweight.dataFrameLength(config.maxPayload())];
        forward.wrap(frame, 0);
    }

    /** One visit of {@code token} at this member of the ring {@code members}. */
    void visit(Token token, NavigableSet<Integer> members, long nowNs) {
        if (members.first() == self) {
            closeRound(token, members);
        }
        senders(token, nowNs);
        Set<PacketId> listed = records(token, members);
        writeLosses(token, listed);
    }

    /** At the leader: the round that ends here publishes its minimum as each sender's stable point. */
    private void closeRound(Token token, NavigableSet<Integer> members) {
        boolean busy = !token.records.isEmpty();
        for (Iterator<Token.Sender> it = token.senders.iterator(); it.hasNext(); ) {
            Token.Sender s = it.next();
            if (!s.has(QsmTokenFlyweight.PARTIAL)) {
                s.stable = Math.max(s.stable, Math.min(s.acc, s.highest + 1));
            }
            boolean level = s.stable >= s.highest + 1;
            if (level && s.has(QsmTokenFlyweight.COMPLETE) && !recordsName(token, s.origin)) {
                it.remove(); // everyone was level with it for a whole round: the sender has seen it; forget it
                continue;
            }
            busy = true;
            s.flags = level ? QsmTokenFlyweight.COMPLETE : 0;
            s.acc = Long.MAX_VALUE;
        }
        token.round++;
        token.idleRounds = busy ? 0 : token.idleRounds + 1;
    }

    private static boolean recordsName(Token token, int origin) {
        for (Token.Record r : token.records) {
            if (r.origin == origin) {
                return true;
            }
        }
        return false;
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
    private Set<PacketId> records(Token token, NavigableSet<Integer> members) {
        Set<PacketId> listed = new HashSet<>();
        for (Iterator<Token.Record> it = token.records.iterator(); it.hasNext(); ) {
            Token.Record r = it.next();
            PacketId id = new PacketId(r.origin, token.group, r.seqno);
            if (!members.contains(r.missing)) {
                it.remove(); // the member that missed it is gone
            } else if (r.missing == self) {
                MissingTable.Loss loss = missing.get(id);
                if (loss == null) {
                    it.remove(); // recovered (or given up) since it was written
                } else if (++loss.rounds > config.recoveryRounds()) {
                    it.remove();
                    receiver.giveUp(id);
                } else {
                    listed.add(id);
                    r.rounds = loss.rounds;
                    r.holder = QsmTokenFlyweight.NO_HOLDER; // back round without the packet: ask again
                }
            } else if (r.holder == QsmTokenFlyweight.NO_HOLDER && (r.origin != self || r.rounds > 0)
                    && forward(id, r.missing)) {
                r.holder = self;
            }
        }
        return listed;
    }

    /** Sends {@code id} to {@code to} by unicast if this member holds it; returns whether it did. */
    private boolean forward(PacketId id, int to) {
        byte[] payload;
        int length;
        if (id.origin() == self) {
            payload = sendBuffer.find(id.group(), id.seqno());
            length = payload == null ? 0 : payload.length;
        } else {
            int slot = receiver.delivered(id) ? cache.find(id) : -1;
            payload = slot < 0 ? null : cache.payload(slot);
            length = slot < 0 ? 0 : cache.length(slot);
        }
        if (payload == null) {
            return false;
        }
        int frameLength = forward.write(FrameType.QSM_REPAIR, self, id.origin(), id.group(), id.seqno(), payload, 0,
                length);
        counters.increment(QsmCounter.QSM_REPAIRS_SENT);
        if (id.origin() == self) {
            counters.increment(QsmCounter.QSM_REPAIRS_FROM_ORIGIN);
        }
        outbox.unicast(to, frame, 0, frameLength);
        return true;
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
