package io.ricochet.nak;

import io.ricochet.engine.Counter;

/** The NAK layer's counters (paper, section 4.2.7), in the protocols that NAK: Ricochet and sender-based FEC. */
public enum NakCounter implements Counter {
    NAKS_SENT(18, "NAKs sent"),
    NAKS_RECEIVED(19, "NAKs received"),
    RETRANSMITS_SENT(20, "retransmissions sent in answer to NAKs"),
    GONE_SENT(21, "NAKs answered 'gone': the packet had left the retransmit buffer"),
    GONE_RECEIVED(22, "'gone' answers received"),
    SESSIONS_SENT(33, "idle-stream announcements of the highest seqno sent (NAK layer)"),
    SESSIONS_RECEIVED(34, "idle-stream announcements received"),
    SESSION_FRAMES_SENT(253, "datagrams that carried this node's idle-stream announcements (SESSION, or SESSIONS: "
            + "those of several groups with the same members in one)"),
    SESSION_FRAMES_RECEIVED(254, "datagrams of idle-stream announcements received (SESSION and SESSIONS)"),
    NAKS_RATE_LIMITED(35, "NAKs held back by the node's NAK rate limit (each waits its turn; not an attempt)"),
    TAILS_SENT(38, "highest seqnos seen of a failed sender, multicast to its groups (the crashed sender's tail)"),
    TAILS_RECEIVED(39, "failed senders' tails received from other members"),
    ANSWERS_THROTTLED(42, "NAKs left unanswered because their requester reached its answer rate (NAK rate limit)"),
    NAKS_TOO_SHORT(45, "NAKs left unanswered because the retransmission would be over 3 times their bytes (padded "
            + "for a smaller frame limit than this node's: mtu settings differ)"),
    STABLES_SENT(46, "reports to senders of how far their streams are resolved here (STABLE)"),
    STABLES_RECEIVED(47, "STABLE reports received from members about this node's streams"),
    STABLE_RELEASES(48, "sent packets dropped from the retransmit buffer before their retention time because every "
            + "member had resolved them"),
    JOIN_PROBES_SENT(248, "requests to senders already in a group this node joined for the seqno its stream starts "
            + "at here (JOIN_PROBE, repeats included)"),
    JOIN_POINTS_SENT(249, "answers to members that joined one of this node's groups: the next seqno of its stream "
            + "there (JOIN_POINT)"),
    JOIN_POINTS_RECEIVED(250, "join points taken: streams started where their sender said this node's join took "
            + "effect"),
    JOIN_POINTS_UNMATCHED(251, "JOIN_POINT answers matching no probe this node waits for (late copies, or replayed "
            + "from an earlier join)"),
    AWAITING_JOIN_POINT(252, "frames of a sender dropped because its join point was not yet known here (the losses "
            + "they show are recovered from the join point on)");

    private final int id;
    private final String description;

    NakCounter(int id, String description) {
        this.id = id;
        this.description = description;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String description() {
        return description;
    }
}
