package io.ricochet.bench.perturb;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.sim.SimObserver;
import java.util.HashMap;
import java.util.Map;

/**
 * The quantity of Bimodal Multicast's bimodal-delivery figure, measured: for every message sent in the measured
 * time, the number of the group's other members that delivered it, counted twice: from the original multicast
 * alone (deliveries of kind {@link Delivery#DIRECT}: before any recovery), and by any means by the end of the run
 * (after recovery). Groups must all have {@code receivers + 1} members, so the counts share one axis 0..receivers.
 */
final class ReceiverCounts implements SimObserver {
    private final int receivers;
    private final long measuredNs;
    private final Map<PacketId, int[]> reached = new HashMap<>();

    /**
     * @param receivers  members of a group other than the sender
     * @param measuredNs messages sent from then on are not counted
     */
    ReceiverCounts(int receivers, long measuredNs) {
        this.receivers = receivers;
        this.measuredNs = measuredNs;
    }

    @Override
    public void sent(int origin, int group, long seqno, long nowNs) {
        if (nowNs < measuredNs) {
            reached.put(new PacketId(origin, group, seqno), new int[2]);
        }
    }

    @Override
    public void delivered(int node, int origin, int group, long seqno, Delivery how, long nowNs) {
        int[] counts = reached.get(new PacketId(origin, group, seqno));
        if (counts == null) {
            return;
        }
        if (how == Delivery.DIRECT) {
            counts[0]++;
        }
        counts[1]++;
    }

    /** Messages reached by exactly k receivers (index k = 0..receivers) from the original multicast. */
    long[] beforeRecovery() {
        return histogram(0);
    }

    /** Messages delivered by exactly k receivers (index k = 0..receivers) by the end of the run. */
    long[] afterRecovery() {
        return histogram(1);
    }

    private long[] histogram(int which) {
        long[] out = new long[receivers + 1];
        for (int[] counts : reached.values()) {
            if (counts[which] > receivers) {
                throw new IllegalStateException(counts[which] + " receivers of a message in a group of "
                        + (receivers + 1));
            }
            out[counts[which]]++;
        }
        return out;
    }

    long messages() {
        return reached.size();
    }
}
