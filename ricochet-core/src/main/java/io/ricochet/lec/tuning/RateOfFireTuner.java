package io.ricochet.lec.tuning;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntUnaryOperator;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * A node's rate-of-fire tuning: one {@link RateOfFireController} per group it receives in, fed by the engine with
 * what it already knows (data received, each loss resolved by LEC or otherwise), and polled with the time.
 *
 * <p>Evidence is kept per group and for the whole node. At the paper's workload a group brings a node about 8
 * packets a second, so at 0.1 % loss a group sees a loss every two minutes: too little to decide on. A group with
 * less than {@link TuningSettings#minPackets} of its own evidence decides on the node's, which pools every group
 * (losses happen at the receiver, to whichever group's packet comes); a busy group decides on its own.
 *
 * <p>Only this node's (r, c) change: in LEC each receiver decides alone how many repairs it builds per r packets, and
 * a repair lists the packets it carries, so members need not agree on either (paper, section 3.3). The caller
 * recomputes the repair plan when {@link #poll} says something changed; with the same r the bins keep their partly
 * built repairs, and no data packet goes anywhere differently: a change cannot lose or duplicate one.
 *
 * <p><b>r, for the whole node</b> (its bins mix groups, so r is the node's, not a group's). A repair of r packets
 * costs c / r repairs per packet, and keeping LEC's misses at the target needs c proportional to
 * {@code 1 / (1 - L)^r}, so the repairs per packet fall as r grows up to about 1 / L: at the losses LEC is meant
 * for, the larger r the cheaper. Two things bound it: the c it needs must stay in the range (at 5 % loss r = 8 needs
 * c of about 10), and latency: a lost packet waits for repairs that go out when their bins have filled with r
 * packets, so LEC's recovery latency grows with r. The mean latency of LEC's recoveries (from discovery) is measured
 * at the r in force and scaled in proportion to r; it must stay within {@link TuningSettings#lecLatencyNs}. r is the
 * largest meeting both; it moves only by two or more (or up to the top), at once, at most once per hold time.
 */
public final class RateOfFireTuner {
    /** LEC recoveries in the evidence before their mean latency bounds r. */
    static final int MIN_LEC_RECOVERIES = 10;
    private final TuningSettings settings;
    private final int rLow;
    private final int rHigh;
    private final IntToDoubleFunction configuredC;
    private int r;
    private RLimit rLimit = RLimit.CONFIGURED;
    private long lastRChangeNs;
    /** By group id, without boxing: read for every data packet and recovery when tuning is on. */
    private final Int2ObjectHashMap<Group> groups = new Int2ObjectHashMap<>();
    private final Evidence node = new Evidence();
    private long nextEpochNs;
    private boolean started;

    private static final class Group {
        final int id;
        final RateOfFireController controller;
        final Evidence own = new Evidence();
        boolean ownEvidence;

        Group(int id, RateOfFireController controller) {
            this.id = id;
            this.controller = controller;
        }
    }

    /**
     * @param settings    the ranges, targets and rate limits (must be enabled)
     * @param r           the configured rate-of-fire r, where tuning starts (clamped to the range)
     * @param rFit        the largest r a repair frame can carry: the range's top is lowered to it
     * @param configuredC each group's configured c, where its tuning starts
     */
    public RateOfFireTuner(TuningSettings settings, int r, int rFit, IntToDoubleFunction configuredC) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("tuning is off: keep the configured c instead of a tuner");
        }
        this.settings = settings;
        this.rHigh = Math.max(1, Math.min(settings.rMax(), rFit));
        this.rLow = Math.min(settings.rMin(), rHigh);
        this.r = Math.min(rHigh, Math.max(rLow, r));
        this.configuredC = configuredC;
    }

    private Group group(int group) {
        Group g = groups.get(group);
        if (g == null) {
            g = new Group(group, new RateOfFireController(settings, configuredC.applyAsDouble(group), nextEpochNs));
            groups.put(group, g);
        }
        return g;
    }

    /** A data packet of {@code group} was received directly. */
    public void dataReceived(int group) {
        group(group).own.dataReceived();
        node.dataReceived();
    }

    /**
     * A loss in {@code group} was resolved: recovered by LEC, or otherwise (NAK, late, given up), {@code latencyNs}
     * after it was found missing (read for LEC's recoveries only).
     */
    public void resolved(int group, boolean byLec, long latencyNs) {
        Group g = group(group);
        double c = g.controller.c();
        g.own.resolved(byLec, c, r, latencyNs);
        node.resolved(byLec, c, r, latencyNs);
    }

    /** This node left {@code group}: its controller goes. */
    public void forget(int group) {
        groups.remove(group);
    }

    /**
     * Once an epoch: the node decides its r, every group its c (on its own evidence or the node's), and the evidence
     * ages. Returns true if r or some group's c changed, so the repair plan must be recomputed.
     *
     * @param groupSize members of a group other than this node
     */
    public boolean poll(long nowNs, IntUnaryOperator groupSize) {
        if (!started) {
            started = true;
            nextEpochNs = nowNs + settings.epochNs();
            lastRChangeNs = nowNs;
            return false;
        }
        if (nowNs - nextEpochNs < 0) {
            return false;
        }
        nextEpochNs = nowNs + settings.epochNs();
        node.detectChange();
        boolean changed = decideR(nowNs, groupSize);
        for (Group g : groups.values()) {
            g.own.detectChange();
            g.ownEvidence = g.own.slow.packets() >= settings.minPackets();
            Evidence.Window evidence = g.ownEvidence ? g.own.slow : node.slow;
            changed |= g.controller.decide(nowNs, evidence, groupSize.applyAsInt(g.id) + 1, r);
            g.own.age(settings.memory());
        }
        node.age(settings.memory());
        return changed;
    }

    /** The node's r (see the class comment), on its pooled evidence and the smallest group's reach. */
    private boolean decideR(long nowNs, IntUnaryOperator groupSize) {
        if (rLow == rHigh || node.slow.packets() < settings.minPackets()
                || nowNs - lastRChangeNs < settings.holdNs()) {
            return false;
        }
        int smallest = Integer.MAX_VALUE;
        for (Group g : groups.values()) {
            int s = groupSize.applyAsInt(g.id) + 1;
            if (s >= 3) {
                smallest = Math.min(smallest, s);
            }
        }
        if (smallest == Integer.MAX_VALUE) {
            return false; // no group LEC can help: r does not matter
        }
        double loss = node.slow.losses() / node.slow.packets();
        double need = RateOfFireController.need(loss, settings);
        double kappa = RateOfFireController.kappa(node.slow, loss, smallest, settings);
        int byC = rLow;
        for (int k = rHigh; k > rLow; k--) {
            double q = RateOfFireController.reach(loss, k, smallest);
            if (need <= 1 || Math.log(need) / (kappa * q) <= settings.cMax()) {
                byC = k;
                break;
            }
        }
        // LEC's mean recovery latency, seen at the r in force, scaled in proportion to r: the largest r within the
        // target. Too few recoveries to measure it (a quiet network): latency sets no bound.
        int byLatency = rHigh;
        Evidence.Window w = node.slow;
        if (w.lec >= MIN_LEC_RECOVERIES && w.lecNs > 0) {
            double perR = w.lecNs / w.lec / (w.rSum / w.losses());
            byLatency = (int) Math.max(rLow, Math.min(rHigh, Math.floor(settings.lecLatencyNs() / perR)));
        }
        int next = Math.min(byC, byLatency);
        // A band of two on either side: an estimate on the edge between r and r + 1 must not flip r back and forth.
        boolean down = next < r - 1;
        boolean up = next >= r + 2 || next == rHigh && next > r;
        rLimit = next == rHigh ? RLimit.RANGE : byC <= byLatency ? RLimit.C_RANGE : RLimit.LATENCY;
        if (!down && !up || next == r) {
            return false;
        }
        for (Group g : groups.values()) {
            Evidence.Window evidence = g.ownEvidence ? g.own.slow : node.slow;
            double groupLoss = evidence.packets() > 0 ? evidence.losses() / evidence.packets() : loss;
            g.controller.rescale(r, next, groupLoss, groupSize.applyAsInt(g.id) + 1);
        }
        r = next;
        lastRChangeNs = nowNs;
        return true;
    }

    /** The node's r in force. */
    public int r() {
        return r;
    }

    /** What holds r where it is. */
    public RLimit rLimit() {
        return rLimit;
    }

    /** The c in force for {@code group} (its configured c until its controller first changes it). */
    public double c(int group) {
        Group g = groups.get(group);
        return g == null ? Math.min(settings.cMax(), Math.max(settings.cMin(), configuredC.applyAsDouble(group)))
                : g.controller.c();
    }

    /** Every group's c and why, by group. */
    public List<GroupTuning> snapshot() {
        List<Group> byId = new ArrayList<>(groups.values());
        byId.sort(Comparator.comparingInt(g -> g.id));
        List<GroupTuning> out = new ArrayList<>(byId.size());
        byId.forEach(g -> out.add(new GroupTuning(g.id, r, g.controller.c(), g.controller.reason(),
                g.controller.lossRate(), g.controller.lecShare(), g.controller.wanted(), g.ownEvidence)));
        return out;
    }

    /** Changes of the loss rate this node's pooled evidence detected (each restarted its slow window). */
    public long lossChangesSeen() {
        return node.restarts();
    }

    public TuningSettings settings() {
        return settings;
    }
}
