package io.ricochet.pbcast;

/**
 * How a gossiper answers a solicitation or an mcast request for a message it holds: the decision rules of the
 * paper's Figures 4 (basic), 5 (Pbcast-ipmc), 7 (Pbcast-grb) and 9 (Pbcast-local), with the per-message state
 * they keep in the {@link MessageBuffer}. Pure decision and state update: sending is the caller's job.
 *
 * <ul>
 *   <li>Every request increments the message's request counter.</li>
 *   <li>Multicast if (ipmc and counter &gt;= threshold) or (grb and my retransmit bit set and gossip retransmit
 *       bit &gt;= 1); then counter and both bits go back to 0. Like the figures, this branch checks neither the
 *       round nor limit-retrans (the caller still counts it against the round).</li>
 *   <li>Otherwise unicast to the requester, if the request names the current round and limit-retrans is not
 *       reached; with grb, that sets my retransmit bit.</li>
 *   <li>An mcast request (Pbcast-local) only ever multicasts, under the same condition, with the counter rule
 *       always on (Figure 9 uses it whatever the other switches say).</li>
 * </ul>
 */
final class RetransmitPolicy {
    /** What to do with one request. */
    enum Action {
        /** Send the message back to the requester alone. */
        UNICAST,
        /** Multicast it to the group: the request counter reached the threshold. */
        MULTICAST,
        /** Multicast it to the group: the retransmit bits say two members already retransmitted it (grb). */
        MULTICAST_BY_BIT,
        /** Not answered: the request answers a digest of an earlier round. */
        STALE_ROUND,
        /** Not answered: limit-retrans reached this round. */
        LIMIT_REACHED,
        /** Not answered: an mcast request below the threshold. */
        NONE
    }

    private final boolean ipmc;
    private final boolean grb;
    private final int threshold;

    RetransmitPolicy(PbcastConfig config) {
        this.ipmc = config.ipmc();
        this.grb = config.grb();
        this.threshold = config.ipmcThreshold();
    }

    /** A solicitation for the message in {@code slot}. */
    Action onRequest(MessageBuffer buffer, int slot, boolean currentRound, boolean mayRetransmit) {
        Action multicast = multicastDecision(buffer, slot, ipmc);
        if (multicast != Action.NONE) {
            return multicast;
        }
        if (!currentRound) {
            return Action.STALE_ROUND;
        }
        if (!mayRetransmit) {
            return Action.LIMIT_REACHED;
        }
        if (grb) {
            buffer.myRetransmitBit(slot, true);
        }
        return Action.UNICAST;
    }

    /** Pbcast-local: a neighbour of a requester asks for the message in {@code slot} to be multicast. */
    Action onMcast(MessageBuffer buffer, int slot) {
        return multicastDecision(buffer, slot, true);
    }

    private Action multicastDecision(MessageBuffer buffer, int slot, boolean counterRule) {
        int count = buffer.requestCounter(slot) + 1;
        buffer.requestCounter(slot, count);
        Action action = Action.NONE;
        if (counterRule && count >= threshold) {
            action = Action.MULTICAST;
        } else if (grb && buffer.myRetransmitBit(slot) && buffer.gossipRetransmitBit(slot) >= 1) {
            action = Action.MULTICAST_BY_BIT;
        }
        if (action != Action.NONE) {
            buffer.requestCounter(slot, 0);
            buffer.myRetransmitBit(slot, false);
            buffer.gossipRetransmitBit(slot, 0);
        }
        return action;
    }

    /** Figure 7, gossip receipt: a digest marks the message in {@code slot} as retransmitted by its gossiper. */
    void onGossipedBit(MessageBuffer buffer, int slot) {
        if (grb) {
            buffer.gossipRetransmitBit(slot, buffer.gossipRetransmitBit(slot) + 1);
        }
    }

    /** The gossip retransmit bit this member puts in its digests for the message: its own retransmit bit. */
    boolean gossipFlag(MessageBuffer buffer, int slot) {
        return grb && buffer.myRetransmitBit(slot);
    }

    /** True when Pbcast-grb is on, so digests carry and merge retransmit bits. */
    boolean usesBits() {
        return grb;
    }
}
