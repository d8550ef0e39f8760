package io.ricochet.qsm;

import java.util.HashSet;
import java.util.Set;

/**
 * What a token must say to be believed, beyond the layout the validator checked: one entry per sender, a stable
 * point and a minimum no higher than one past the sender's highest seqno (the minimum may be unset, the largest
 * value, between the leader and the sender's first visit), and no record twice. A token that breaks one is refused
 * whole: its collective acknowledgement could release packets a member still misses.
 */
final class TokenRules {
    private TokenRules() {
    }

    static boolean consistent(Token token) {
        Set<Integer> origins = new HashSet<>();
        for (Token.Sender s : token.senders) {
            boolean accOk = s.acc == Long.MAX_VALUE || s.acc <= s.highest + 1;
            if (!origins.add(s.origin) || s.stable > s.highest + 1 || !accOk) {
                return false;
            }
        }
        Set<String> records = new HashSet<>();
        for (Token.Record r : token.records) {
            if (!records.add(r.origin + "/" + r.seqno + "/" + r.missing)) {
                return false;
            }
        }
        return true;
    }
}
