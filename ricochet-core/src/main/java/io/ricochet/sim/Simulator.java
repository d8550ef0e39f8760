package io.ricochet.sim;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.loss.LossInjector;
import io.ricochet.region.Region;
import io.ricochet.region.RegionPlan;
import io.ricochet.region.RegionPlanner;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Discrete-event simulator: N engines on virtual time and a virtual network with a fixed one-hop latency, loss
 * applied at each receiver as the paper does (so every drop time is exact). Drives exactly the engine the daemon
 * drives. Deterministic: the same {@link SimConfig} (seed included) gives the same {@link SimResult}.
 *
 * <pre>
 *   sender --multicast(latency)--> every other member of the group --loss model--> engine.onPacket
 *   engine --unicast(latency)----> one node ------------------------loss model--> engine.onPacket
 * </pre>
 */
public final class Simulator {
    /** Told the simulated time now and then (about once per simulated second). */
    public interface Progress {
        void at(double simulatedSeconds, double totalSeconds);
    }

    private final SimConfig config;
    private final Workload workload;
    private final ProtocolEngine[] engines;
    private final LossInjector[] injectors;
    private final SplittableRandom[] sendRngs;
    private final long[][] nextSeqno;
    private final SimStats stats;
    private final EventQueue queue = new EventQueue();
    private final byte[] payload;
    /** The perturbed node's sleep state; null in a run without perturbation. */
    private final SleepingNode sleeper;
    /** Computes the regions the engines are given; null: none. */
    private RegionPlanner regionPlanner;
    private SimObserver observer = new SimObserver() { };
    private long events;

    public Simulator(SimConfig config) {
        this(config, null);
    }

    /**
     * A run in which one node sleeps periodically ({@code perturbation}; null for none). The perturbation draws no
     * random number, so the rest of the run draws exactly what it would draw without it.
     */
    public Simulator(SimConfig config, Perturbation perturbation) {
        this.config = config;
        if (perturbation != null && perturbation.node() >= config.nodes()) {
            throw new IllegalArgumentException("--perturb " + perturbation.node() + ": the node index must be in 0.."
                    + (config.nodes() - 1) + " (--nodes " + config.nodes() + ")");
        }
        this.sleeper = perturbation == null ? null : new SleepingNode(perturbation);
        SplittableRandom root = new SplittableRandom(config.seed());
        // The random grouping's generator is split off even when the grouping is given, so that the rest of the
        // run (engines, losses, senders) draws the same numbers either way.
        SplittableRandom grouping = root.split();
        this.workload = config.membership() == null
                ? Workload.generate(config.nodes(), config.degree(), config.groupSize(), config.ratePerNode(),
                        grouping)
                : Workload.of(config.membership().stream()
                        .map(groups -> groups.stream().mapToInt(Integer::intValue).toArray())
                        .toArray(int[][]::new),
                        Workload.groupCount(config.nodes(), config.degree(), config.groupSize()), config.ratePerNode());
        int n = config.nodes();
        this.engines = new ProtocolEngine[n];
        this.injectors = new LossInjector[n];
        this.sendRngs = new SplittableRandom[n];
        this.nextSeqno = new long[n][];
        this.stats = new SimStats(config, workload, perturbation);
        this.payload = new byte[config.payload()];
        for (int node = 0; node < n; node++) {
            engines[node] = config.protocol().create(node, root.split(), new NodeOutbox(node));
            injectors[node] = new LossInjector(config.loss().newModel(root.nextLong()), config.lossScope(), node);
            sendRngs[node] = root.split();
            nextSeqno[node] = new long[workload.groupsOfNode()[node].length];
        }
    }

    public Workload workload() {
        return workload;
    }

    public ProtocolEngine engine(int node) {
        return engines[node];
    }

    /** Watches the run's sends, arrivals and deliveries; set before {@link #run}. */
    public Simulator observe(SimObserver watcher) {
        this.observer = java.util.Objects.requireNonNull(watcher, "watcher");
        return this;
    }

    /**
     * Gives every engine the GMS's regions of its groups, as {@code planner} computes them from the workload's
     * memberships (QSM section 3; {@code docs/design/regions.md}): a protocol that recovers by region (qsm) lays its
     * partitions out along them. Call before {@link #run}. Draws no random number.
     */
    public Simulator regions(RegionPlanner planner) {
        this.regionPlanner = planner;
        return this;
    }

    /** What the perturbed node's sleeps did, or null in a run without perturbation. */
    public PerturbationReport perturbationReport() {
        return sleeper == null ? null
                : new PerturbationReport(sleeper.perturbation(), sleeper.held(), sleeper.overflowed(),
                        sleeper.sendsSkipped());
    }

    /** Runs to the end: measured traffic, drain traffic, then until no timer is left. */
    public SimResult run(Progress progress) {
        joinAll();
        for (int node = 0; node < config.nodes(); node++) {
            if (workload.sendGroupsOfNode()[node].length > 0 && workload.sendRatePerNode() > 0) {
                int sender = node;
                queue.at(nextSendTime(node, 0), () -> send(sender));
            }
        }
        long totalNs = config.trafficEndNs();
        long nextProgressNs = 1_000_000_000L;
        while (queue.step()) {
            events++;
            long nowNs = queue.nowNs();
            if (progress != null && nowNs >= nextProgressNs) {
                progress.at(nowNs / 1e9, totalNs / 1e9);
                nextProgressNs = (nowNs / 1_000_000_000L + 1) * 1_000_000_000L;
            }
        }
        return stats.result(engines, events);
    }

    /** Every node joins its groups first, then learns the other members: it saw them join, so streams start at 0. */
    private void joinAll() {
        for (int node = 0; node < config.nodes(); node++) {
            for (int group : workload.groupsOfNode()[node]) {
                engines[node].onMembership(MembershipEvent.join(group, node), 0);
            }
        }
        for (int node = 0; node < config.nodes(); node++) {
            for (int group : workload.groupsOfNode()[node]) {
                for (int member : workload.membersOfGroup()[group]) {
                    if (member != node) {
                        engines[node].onMembership(MembershipEvent.join(group, member), 0);
                    }
                }
            }
        }
        if (regionPlanner != null) {
            giveRegions();
        }
    }

    /** Every member of every group learns the group's regions from one plan of the whole workload. */
    private void giveRegions() {
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int group = 0; group < workload.membersOfGroup().length; group++) {
            List<Integer> members = new ArrayList<>();
            for (int member : workload.membersOfGroup()[group]) {
                members.add(member);
            }
            groups.put(group, members);
        }
        RegionPlan plan = regionPlanner.plan(groups);
        for (int group : groups.keySet()) {
            List<List<Integer>> regions = plan.regionsOf(group).stream().map(Region::members).toList();
            for (int member : groups.get(group)) {
                engines[member].onRegions(group, regions, 0);
            }
        }
    }

    private void send(int node) {
        long nowNs = queue.nowNs();
        if (sleeper != null && sleeper.asleep(node, nowNs)) {
            sleeper.skipSend();         // a sleeping process sends nothing; its send clock runs on
            scheduleNextSend(node, nowNs);
            return;
        }
        int[] groups = workload.sendGroupsOfNode()[node];
        int group = groups[sendRngs[node].nextInt(groups.length)];
        int index = Arrays.binarySearch(workload.groupsOfNode()[node], group);
        long seqno = nextSeqno[node][index]++;
        Payloads.fill(payload, 0, payload.length, node, group, seqno);
        observer.sent(node, group, seqno, nowNs);
        long sent = engines[node].send(group, payload, 0, payload.length, nowNs);
        if (sent != seqno) {
            throw new IllegalStateException("engine " + node + " numbered a send " + sent + ", expected " + seqno);
        }
        scheduleNextSend(node, nowNs);
    }

    private void scheduleNextSend(int node, long nowNs) {
        long next = nextSendTime(node, nowNs);
        if (next < config.trafficEndNs()) {
            queue.at(next, () -> send(node));
        }
    }

    private long nextSendTime(int node, long fromNs) {
        double u = sendRngs[node].nextDouble();
        double gapSeconds = -Math.log1p(-u) / workload.sendRatePerNode();
        return fromNs + Math.max(1, (long) (gapSeconds * 1e9));
    }

    private void arrive(int node, byte[] frame) {
        if (injectors[node].drop(frame, 0, queue.nowNs())) {
            PacketId id = injectors[node].droppedData(frame, 0, frame.length);
            if (id != null) {
                stats.dropped(node, id, queue.nowNs());
            } else {
                stats.droppedControl();
            }
            return;
        }
        long nowNs = queue.nowNs();
        if (sleeper != null && sleeper.asleep(node, nowNs)) {
            if (!sleeper.hold(frame)) {
                PacketId id = injectors[node].droppedData(frame, 0, frame.length);
                if (id != null) {
                    stats.dropped(node, id, nowNs);   // a socket-buffer overflow is a loss like any other
                }
                return;
            }
            scheduleWake(nowNs);
            return;
        }
        process(node, frame, nowNs);
    }

    private void process(int node, byte[] frame, long nowNs) {
        observer.received(node, frame[HeaderFlyweight.TYPE_OFFSET], nowNs);
        engines[node].onPacket(frame, 0, frame.length, nowNs);
    }

    private void timer(int node) {
        long nowNs = queue.nowNs();
        if (sleeper != null && sleeper.asleep(node, nowNs)) {
            sleeper.missTimer();
            scheduleWake(nowNs);
            return;
        }
        engines[node].onTimer(nowNs);
    }

    private void scheduleWake(long nowNs) {
        long wake = sleeper.wakeToSchedule(nowNs);
        if (wake >= 0) {
            queue.at(wake, this::wake);
        }
    }

    /** The sleeper wakes: the frames that waited, in arrival order, then the timer it missed. */
    private void wake() {
        int node = sleeper.node();
        long nowNs = queue.nowNs();
        for (byte[] frame = sleeper.nextHeld(); frame != null; frame = sleeper.nextHeld()) {
            process(node, frame, nowNs);
        }
        if (sleeper.takeMissedTimer()) {
            engines[node].onTimer(nowNs);
        }
    }

    /** One node's view of the virtual network. */
    private final class NodeOutbox implements Outbox {
        private final int node;

        NodeOutbox(int node) {
            this.node = node;
        }

        @Override
        public void multicast(int group, byte[] frame, int offset, int length) {
            byte[] copy = Arrays.copyOfRange(frame, offset, offset + length);
            int receivers = 0;
            for (int member : workload.membersOfGroup()[group]) {
                if (member != node) {
                    queue.at(queue.nowNs() + config.latencyNs(), () -> arrive(member, copy));
                    receivers++;
                }
            }
            stats.onWire(copy[HeaderFlyweight.TYPE_OFFSET], receivers, queue.nowNs());
        }

        @Override
        public void unicast(int to, byte[] frame, int offset, int length) {
            stats.onWire(frame[offset + HeaderFlyweight.TYPE_OFFSET], 1, queue.nowNs());
            byte[] copy = Arrays.copyOfRange(frame, offset, offset + length);
            queue.at(queue.nowNs() + config.latencyNs(), () -> arrive(to, copy));
        }

        @Override
        public void deliver(int origin, int group, long seqno, byte[] data, int offset, int length, Delivery how) {
            stats.delivered(node, origin, group, seqno, data, offset, length, how, queue.nowNs());
            observer.delivered(node, origin, group, seqno, how, queue.nowNs());
        }

        @Override
        public void lost(int origin, int group, long seqno, long discoveredNs) {
            stats.lost(node);
        }

        @Override
        public void wakeAt(long deadlineNs) {
            queue.at(Math.max(deadlineNs, queue.nowNs()), () -> timer(node));
        }

        @Override
        public void lossDiscovered(int origin, int group, long seqno, long discoveredNs) {
            stats.discovered(node, new PacketId(origin, group, seqno), discoveredNs);
        }
    }
}
