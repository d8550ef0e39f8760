package io.ricochet.qsm;

import java.util.ArrayList;
import java.util.List;

/**
 * A token decoded for one visit: the holder reads and changes it in place, then writes it out for the next member.
 * Tokens are rare (one per ring per interval), so decoding into objects costs nothing that matters.
 */
final class Token {
    /** What the ring knows of one sender. */
    static final class Sender {
        final int origin;
        int flags;
        long highest;
        long stable;
        long acc;

        Sender(int origin, int flags, long highest, long stable, long acc) {
            this.origin = origin;
            this.flags = flags;
            this.highest = highest;
            this.stable = stable;
            this.acc = acc;
        }

        boolean has(int flag) {
            return (flags & flag) != 0;
        }
    }

    /** One member's loss of one packet, and who forwarded it this round. */
    static final class Record {
        final int origin;
        final long seqno;
        final int missing;
        int holder;
        int rounds;

        Record(int origin, long seqno, int missing, int holder, int rounds) {
            this.origin = origin;
            this.seqno = seqno;
            this.missing = missing;
            this.holder = holder;
            this.rounds = rounds;
        }
    }

    final int group;
    /** 0: a partition's ring (or an unsplit unit's); 1: the ring of the partition leaders. */
    final int level;
    final long epoch;
    final int generator;
    int round;
    int idleRounds;
    final List<Sender> senders = new ArrayList<>();
    final List<Record> records = new ArrayList<>();

    Token(int group, int level, long epoch, int generator) {
        this.group = group;
        this.level = level;
        this.epoch = epoch;
        this.generator = generator;
    }

    /** Decodes a token the validator accepted. */
    static Token read(QsmTokenFlyweight f) {
        Token t = new Token(f.group(), f.level(), f.epoch(), f.generator());
        t.round = f.round();
        t.idleRounds = f.idleRounds();
        for (int i = 0, n = f.senderCount(); i < n; i++) {
            t.senders.add(new Sender(f.senderOrigin(i), f.senderFlags(i), f.senderHighest(i), f.senderStable(i),
                    f.senderAcc(i)));
        }
        for (int i = 0, n = f.recordCount(); i < n; i++) {
            t.records.add(new Record(f.recordOrigin(i), f.recordSeqno(i), f.recordMissing(i), f.recordHolder(i),
                    f.recordRounds(i)));
        }
        return t;
    }

    /** Encodes the token as sent by {@code source}; returns the frame length. */
    int write(QsmTokenFlyweight f, int source) {
        int length = f.writeHead(source, group, level, epoch, generator, round, idleRounds, senders.size(),
                records.size());
        for (int i = 0; i < senders.size(); i++) {
            Sender s = senders.get(i);
            f.putSender(i, s.origin, s.flags, s.highest, s.stable, s.acc);
        }
        for (int i = 0; i < records.size(); i++) {
            Record r = records.get(i);
            f.putRecord(i, r.origin, r.seqno, r.missing, r.holder, r.rounds);
        }
        return length;
    }

    /** Whether this token wins over one of {@code (otherEpoch, otherGenerator)}: the higher pair wins. */
    boolean outranks(long otherEpoch, int otherGenerator) {
        return epoch != otherEpoch ? epoch > otherEpoch : generator > otherGenerator;
    }

    /** Whether a record of {@code origin} names {@code seqno} missing at {@code missing}. */
    boolean hasRecord(int origin, long seqno, int missing) {
        return record(origin, seqno, missing) != null;
    }

    Record record(int origin, long seqno, int missing) {
        for (Record r : records) {
            if (r.origin == origin && r.seqno == seqno && r.missing == missing) {
                return r;
            }
        }
        return null;
    }

    Sender sender(int origin) {
        for (Sender s : senders) {
            if (s.origin == origin) {
                return s;
            }
        }
        return null;
    }
}
