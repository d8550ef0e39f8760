package io.ricochet.pbcast;

import io.ricochet.engine.Counter;

/** Bimodal Multicast's counters: gossip rounds, digests, solicitations and retransmissions. */
public enum PbcastCounter implements Counter {
    PBCAST_DIGESTS_SENT(140, "pbcast gossip digest frames sent (one per target and frame)"),
    PBCAST_REQUESTS_SENT(141, "pbcast solicitations (retransmission requests) sent to a gossiper"),
    PBCAST_RETRANSMITS_SENT(142, "pbcast retransmissions sent by unicast to a requester"),
    PBCAST_IPMC_RETRANSMITS(143, "pbcast retransmissions multicast to the group (Pbcast-ipmc, -grb, -local)"),
    PBCAST_GC_EXPIRED(144, "pbcast buffered messages garbage collected after stable-threshold rounds"),
    PBCAST_DIGESTS_RECEIVED(145, "pbcast gossip digest frames received"),
    PBCAST_REQUESTS_RECEIVED(146, "pbcast solicitations received"),
    PBCAST_REQUESTS_STALE(147, "pbcast solicitations not answered: they name an earlier gossip round"),
    PBCAST_RETRANSMIT_LIMITED(148, "pbcast solicitations not answered: limit-retrans reached this round"),
    PBCAST_REQUESTS_NOT_BUFFERED(149, "pbcast solicitations or mcast requests for a message no longer buffered"),
    PBCAST_REQUEST_LIMIT_HIT(150, "pbcast digests whose missing messages were cut short by limit-requests"),
    PBCAST_GRB_MULTICASTS(151, "of PBCAST_IPMC_RETRANSMITS, those decided by the gossip retransmit bit"),
    PBCAST_INFOS_SENT(152, "pbcast info messages sent to a neighbour (Pbcast-local)"),
    PBCAST_INFOS_RECEIVED(153, "pbcast info messages received (Pbcast-local)"),
    PBCAST_MCASTS_SENT(154, "pbcast mcast requests sent to a gossiper (Pbcast-local)"),
    PBCAST_MCASTS_RECEIVED(155, "pbcast mcast requests received (Pbcast-local)"),
    PBCAST_BUFFER_EVICTIONS(156, "pbcast buffered messages evicted early because the message buffer was full"),
    PBCAST_ROUNDS(157, "pbcast gossip rounds run"),
    PBCAST_HELD_BACK(158, "pbcast messages held back for FIFO order behind a missing one");

    private final int id;
    private final String description;

    PbcastCounter(int id, String description) {
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
