package io.ricochet.pbcast;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.HeaderFlyweight;

/**
 * The gossiper's side of the second phase: answers solicitations and Pbcast-local's mcast requests from its
 * message buffer, as {@link RetransmitPolicy} decides, and merges the gossip retransmit bits of received digests
 * (Pbcast-grb).
 */
final class Retransmitter {
    private final int self;
    private final MessageBuffer buffer;
    private final RetransmitPolicy policy;
    private final GossipRounds rounds;
    private final Outbox outbox;
    private final Counters counters;
    private final int maxBitLookups;
    private final byte[] frame = new byte[HeaderFlyweight.STANDARD_FRAME_LENGTH];
    private final DataFlyweight out = new DataFlyweight().wrap(frame, 0);

    Retransmitter(int self, PbcastConfig config, MessageBuffer buffer, GossipRounds rounds, Outbox outbox,
                  Counters counters) {
        this.self = self;
        this.buffer = buffer;
        this.policy = new RetransmitPolicy(config);
        this.rounds = rounds;
        this.outbox = outbox;
        this.counters = counters;
        this.maxBitLookups = config.bufferCapacity();
    }

    RetransmitPolicy policy() {
        return policy;
    }

    /** A solicitation from {@code request.source()}. */
    void onRequest(SolicitFlyweight request) {
        counters.increment(PbcastCounter.PBCAST_REQUESTS_RECEIVED);
        int slot = find(request);
        if (slot >= 0) {
            apply(policy.onRequest(buffer, slot, rounds.isCurrent(request.argument()), rounds.mayRetransmit()),
                    slot, request.source());
        }
    }

    /** Pbcast-local: an mcast request from a neighbour of a requester. */
    void onMcast(SolicitFlyweight mcast) {
        counters.increment(PbcastCounter.PBCAST_MCASTS_RECEIVED);
        int slot = find(mcast);
        if (slot >= 0) {
            apply(policy.onMcast(buffer, slot), slot, mcast.source());
        }
    }

    private int find(SolicitFlyweight frame) {
        int slot = buffer.find(new PacketId(frame.origin(), frame.group(), frame.seqno()));
        if (slot < 0) {
            counters.increment(PbcastCounter.PBCAST_REQUESTS_NOT_BUFFERED);
        }
        return slot;
    }

    private void apply(RetransmitPolicy.Action action, int slot, int requester) {
        switch (action) {
            case UNICAST:
                counters.increment(PbcastCounter.PBCAST_RETRANSMITS_SENT);
                rounds.retransmitted();
                outbox.unicast(requester, frame, 0, write(slot));
                break;
            case MULTICAST_BY_BIT:
                counters.increment(PbcastCounter.PBCAST_GRB_MULTICASTS);
                multicast(slot);
                break;
            case MULTICAST:
                multicast(slot);
                break;
            case STALE_ROUND:
                counters.increment(PbcastCounter.PBCAST_REQUESTS_STALE);
                break;
            case LIMIT_REACHED:
                counters.increment(PbcastCounter.PBCAST_RETRANSMIT_LIMITED);
                break;
            default:
                break;
        }
    }

    private void multicast(int slot) {
        counters.increment(PbcastCounter.PBCAST_IPMC_RETRANSMITS);
        rounds.retransmitted();
        outbox.multicast(buffer.id(slot).group(), frame, 0, write(slot));
    }

    private int write(int slot) {
        PacketId id = buffer.id(slot);
        return out.write(PbcastFrameType.RETRANSMIT, self, id.origin(), id.group(), id.seqno(), buffer.payload(slot),
                0, buffer.length(slot));
    }

    /**
     * Figure 7, gossip receipt: each buffered message a digest flags as retransmitted by its gossiper gets its
     * gossip retransmit bit incremented. At most {@code bufferCapacity} seqnos are looked up per digest.
     */
    void onGossipBits(DigestFlyweight digest) {
        if (!policy.usesBits()) {
            return;
        }
        int budget = maxBitLookups;
        for (int i = 0, n = digest.entryCount(); i < n && budget > 0; i++) {
            if (!digest.entryRetransmitted(i)) {
                continue;
            }
            long last = digest.entryLast(i);
            long first = Math.max(digest.entryFirst(i), last - budget + 1);
            budget -= (int) (last - first + 1);
            for (long seqno = first; seqno <= last; seqno++) {
                int slot = buffer.find(new PacketId(digest.entryOrigin(i), digest.group(), seqno));
                if (slot >= 0) {
                    policy.onGossipedBit(buffer, slot);
                }
            }
        }
    }
}
