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
 * <p>Only this node's c changes: in LEC each receiver decides alone how many repairs it builds per r packets, and a
 * repair lists the packets it carries, so members need not agree on c (paper, section 3.3). The caller recomputes
 * the repair plan when {@link #poll} says a c changed; the bins keep their partly built repairs, and no data packet
 * goes anywhere differently: a change cannot lose or duplicate one.
 */
public final class RateOfFireTuner {
    private final TuningSettings settings;
    private final int r;
    private final IntToDoubleFunction configuredC;
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
     * @param settings    the range, target and rate limits (must be enabled)
     * @param r           rate-of-fire r
     * @param configuredC each group's configured c, where its tuning starts
     */
    public RateOfFireTuner(TuningSettings settings, int r, IntToDoubleFunction configuredC) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("tuning is off: keep the configured c instead of a tuner");
        }
        this.settings = settings;
        this.r = r;
        this.configuredC = configuredC;
    }

    private Group group(int group) {
        Group g = groups.get(group);
        if (g == null) {
            g = new Group(group, new RateOfFireController(settings, r, configuredC.applyAsDouble(group), nextEpochNs));
            groups.put(group, g);
        }
        return g;
    }

    /** A data packet of {@code group} was received directly. */
    public void dataReceived(int group) {
        group(group).own.dataReceived();
        node.dataReceived();
    }

    /** A loss in {@code group} was resolved: recovered by LEC, or otherwise (NAK, late, given up). */
    public void resolved(int group, boolean byLec) {
        Group g = group(group);
        double c = g.controller.c();
        g.own.resolved(byLec, c);
        node.resolved(byLec, c);
    }

    /** This node left {@code group}: its controller goes. */
    public void forget(int group) {
        groups.remove(group);
    }

    /**
     * Once an epoch: every group decides (on its own evidence or the node's) and the evidence ages. Returns true if
     * some group's c changed, so the repair plan must be recomputed.
     *
     * @param groupSize members of a group other than this node
     */
    public boolean poll(long nowNs, IntUnaryOperator groupSize) {
        if (!started) {
            started = true;
            nextEpochNs = nowNs + settings.epochNs();
            return false;
        }
        if (nowNs - nextEpochNs < 0) {
            return false;
        }
        nextEpochNs = nowNs + settings.epochNs();
        node.detectChange();
        boolean changed = false;
        for (Group g : groups.values()) {
            g.own.detectChange();
            g.ownEvidence = g.own.slow.packets() >= settings.minPackets();
            Evidence.Window evidence = g.ownEvidence ? g.own.slow : node.slow;
            changed |= g.controller.decide(nowNs, evidence, groupSize.applyAsInt(g.id) + 1);
            g.own.age(settings.memory());
        }
        node.age(settings.memory());
        return changed;
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
        byId.forEach(g -> out.add(new GroupTuning(g.id, g.controller.c(), g.controller.reason(),
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
