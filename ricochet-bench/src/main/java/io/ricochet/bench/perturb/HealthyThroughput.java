package io.ricochet.bench.perturb;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.latency.LatencyStats;
import io.ricochet.sim.SimObserver;
import io.ricochet.wire.FrameType;
import java.util.HashMap;
import java.util.Map;

/**
 * What the healthy members see while one member sleeps: messages of healthy senders delivered per healthy member
 * per second, in bins of the measured time; the sleeper's own deliveries likewise; delivery latency (delivery time
 * minus send time) of every message at the healthy members; and the non-data frames they handle. Memory: one send
 * time per measured message, and the bins.
 */
final class HealthyThroughput implements SimObserver {
    private final int nodes;
    private final int sleeper;
    private final long binNs;
    private final long measuredNs;
    private final long[] healthyBins;
    private final long[] sleeperBins;
    private final Map<PacketId, Long> sentAt = new HashMap<>();
    private final LatencyStats latency = new LatencyStats();
    private long controlFrames;

    /**
     * @param nodes      members, all in the one group
     * @param sleeper    the perturbed member's index (also when it sleeps 0 % of the time)
     * @param binNs      width of a throughput bin
     * @param measuredNs the measured part of the run: sends and deliveries from then on are not counted
     */
    HealthyThroughput(int nodes, int sleeper, long binNs, long measuredNs) {
        this.nodes = nodes;
        this.sleeper = sleeper;
        this.binNs = binNs;
        this.measuredNs = measuredNs;
        int bins = (int) Math.ceil(measuredNs / (double) binNs);
        this.healthyBins = new long[bins];
        this.sleeperBins = new long[bins];
    }

    @Override
    public void sent(int origin, int group, long seqno, long nowNs) {
        if (nowNs < measuredNs) {
            sentAt.put(new PacketId(origin, group, seqno), nowNs);
        }
    }

    @Override
    public void received(int node, int type, long nowNs) {
        if (node != sleeper && nowNs < measuredNs && type != FrameType.DATA) {
            controlFrames++;
        }
    }

    @Override
    public void delivered(int node, int origin, int group, long seqno, Delivery how, long nowNs) {
        Long sent = sentAt.get(new PacketId(origin, group, seqno));
        if (sent == null) {
            return;     // sent after the measured time
        }
        if (node != sleeper) {
            latency.recordNs(nowNs - sent);
        }
        if (nowNs >= measuredNs || origin == sleeper) {
            return;     // throughput counts healthy senders' messages: the sleeper sends nothing while asleep
        }
        int bin = (int) (nowNs / binNs);
        if (node == sleeper) {
            sleeperBins[bin]++;
        } else {
            healthyBins[bin]++;
        }
    }

    /** Messages of healthy senders delivered per healthy member per second, bin by bin. */
    double[] healthyPerSecond() {
        return perSecond(healthyBins, nodes - 1);
    }

    /** Messages of healthy senders the sleeper delivered per second, bin by bin. */
    double[] sleeperPerSecond() {
        return perSecond(sleeperBins, 1);
    }

    private double[] perSecond(long[] bins, int members) {
        double[] out = new double[bins.length];
        for (int i = 0; i < bins.length; i++) {
            long width = Math.min(binNs, measuredNs - i * binNs);
            out[i] = bins[i] / (double) members / (width / 1e9);
        }
        return out;
    }

    /** Delivery latency at the healthy members, in ms. */
    LatencyStats.Summary latencyMs() {
        return latency.summary();
    }

    /** Non-data frames (repairs, NAKs, gossip, session messages, retransmissions) per healthy member per second. */
    double controlPerHealthyPerSecond() {
        return controlFrames / (double) (nodes - 1) / (measuredNs / 1e9);
    }

    long binNs() {
        return binNs;
    }
}
