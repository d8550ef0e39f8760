package io.ricochet.qsm;

import java.util.Iterator;

/**
 * What the leader of a ring does with its token when a round ends there (docs/design/qsm.md, "A visit"), at either
 * level: each sender's stable point moves to what the rule makes of the round's minimum; an entry everyone was level
 * with for a whole round leaves the token; the idle-round count goes on or restarts.
 */
final class RoundCloser {
    /** How a ring turns the minimum of a full round into a sender's new stable point. */
    interface StableRule {
        /** The new stable point of {@code s}, whose round ended with minimum {@code roundMin}. */
        long next(Token.Sender s, long roundMin);
    }

    /** A ring whose minimum is the collective ACK itself: an unsplit unit's, or the leaders' ring. */
    static final StableRule PLAIN = (s, roundMin) -> Math.max(s.stable, roundMin);

    private RoundCloser() {
    }

    static void close(Token token, StableRule rule) {
        boolean busy = !token.records.isEmpty();
        for (Iterator<Token.Sender> it = token.senders.iterator(); it.hasNext(); ) {
            Token.Sender s = it.next();
            if (!s.has(QsmTokenFlyweight.PARTIAL)) {
                s.stable = rule.next(s, Math.min(s.acc, s.highest + 1));
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
}
