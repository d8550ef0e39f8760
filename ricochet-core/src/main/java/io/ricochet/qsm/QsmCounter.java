package io.ricochet.qsm;

import io.ricochet.engine.Counter;

/** QSM's counters: the token's travels, the recoveries it arranged and the buffers its acknowledgements freed. */
public enum QsmCounter implements Counter {
    QSM_TOKENS_SENT(230, "QSM: tokens passed on to the next member of a ring"),
    QSM_TOKENS_RECEIVED(231, "QSM: tokens taken from the previous member of a ring"),
    QSM_TOKENS_REGENERATED(232, "QSM: tokens made anew after none was seen for the regeneration timeout"),
    QSM_TOKENS_STALE(233, "QSM: tokens dropped because a token of a higher (epoch, generator) was seen"),
    QSM_TOKENS_SUPERSEDED(234, "QSM: tokens held here dropped on the arrival of a higher one"),
    QSM_TOKENS_REFUSED(235, "QSM: tokens refused for what they say (stranger source, inconsistent entries)"),
    QSM_TOKENS_PARKED(236, "QSM: times the ring leader stopped the token because the ring had nothing to do"),
    QSM_REPAIRS_SENT(237, "QSM: packets forwarded by unicast to a ring peer that missed them"),
    QSM_REPAIRS_FROM_ORIGIN(238, "QSM: of QSM_REPAIRS_SENT, packets forwarded by their sender (no peer had them)"),
    QSM_REPAIRS_RECEIVED(239, "QSM: forwarded packets received"),
    QSM_RECORDS_FULL(240, "QSM: losses not written in the token at a visit because its records were full"),
    QSM_SENDERS_FULL(241, "QSM: visits at which this sender found no room for its entry in the token"),
    QSM_BUFFER_RELEASED(242, "QSM: sent packets released from the send buffer by the collective acknowledgement"),
    QSM_LOSSES_FROM_TOKEN(243, "QSM: of LOSSES_DETECTED, losses revealed by a sender's highest seqno in the token"),
    QSM_RECORDS_ESCALATED(244, "QSM: losses no member of its partition could forward, passed up to the leaders' ring"),
    QSM_REPAIRS_ACROSS(245, "QSM: of QSM_REPAIRS_SENT, packets a partition leader forwarded to another partition"),
    QSM_ORIGIN_ASKED(246, "QSM: losses no member of the whole ring unit had, relayed down to the packet's sender");

    private final int id;
    private final String description;

    QsmCounter(int id, String description) {
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
