package io.ricochet.sim;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.loss.LossInjector;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

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

    private static final int DELIVER = 0;
    private static final int TIMER = 1;
    private static final int SEND = 2;

    private final SimConfig config;
    private final Workload workload;
    private final ProtocolEngine[] engines;
    private final LossInjector[] injectors;
    private final SplittableRandom[] sendRngs;
    private final long[][] nextSeqno;
    private final SimStats stats;
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private final byte[] payload;
    private long nowNs;
    private long eventSeq;
    private long events;

    public Simulator(SimConfig config) {
        this.config = config;
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
        this.stats = new SimStats(config, workload);
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

    /** Runs to the end: measured traffic, drain traffic, then until no timer is left. */
    public SimResult run(Progress progress) {
        joinAll();
        for (int node = 0; node < config.nodes(); node++) {
            if (workload.sendGroupsOfNode()[node].length > 0 && workload.sendRatePerNode() > 0) {
                schedule(nextSendTime(node, 0), SEND, node, null);
            }
        }
        long totalNs = config.trafficEndNs();
        long nextProgressNs = 1_000_000_000L;
        for (Event e = queue.poll(); e != null; e = queue.poll()) {
            nowNs = e.timeNs;
            events++;
            if (progress != null && nowNs >= nextProgressNs) {
                progress.at(nowNs / 1e9, totalNs / 1e9);
                nextProgressNs = (nowNs / 1_000_000_000L + 1) * 1_000_000_000L;
            }
            switch (e.kind) {
                case DELIVER:
                    arrive(e.node, e.frame);
                    break;
                case TIMER:
                    engines[e.node].onTimer(nowNs);
                    break;
                default:
                    send(e.node);
                    break;
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
    }

    private void send(int node) {
        int[] groups = workload.sendGroupsOfNode()[node];
        int group = groups[sendRngs[node].nextInt(groups.length)];
        int index = Arrays.binarySearch(workload.groupsOfNode()[node], group);
        long seqno = nextSeqno[node][index]++;
        Payloads.fill(payload, 0, payload.length, node, group, seqno);
        long sent = engines[node].send(group, payload, 0, payload.length, nowNs);
        if (sent != seqno) {
            throw new IllegalStateException("engine " + node + " numbered a send " + sent + ", expected " + seqno);
        }
        long next = nextSendTime(node, nowNs);
        if (next < config.trafficEndNs()) {
            schedule(next, SEND, node, null);
        }
    }

    private long nextSendTime(int node, long fromNs) {
        double u = sendRngs[node].nextDouble();
        double gapSeconds = -Math.log1p(-u) / workload.sendRatePerNode();
        return fromNs + Math.max(1, (long) (gapSeconds * 1e9));
    }

    private void arrive(int node, byte[] frame) {
        if (injectors[node].drop(frame, 0)) {
            PacketId id = injectors[node].droppedData(frame, 0, frame.length);
            if (id != null) {
                stats.dropped(node, id, nowNs);
            } else {
                stats.droppedControl();
            }
            return;
        }
        engines[node].onPacket(frame, 0, frame.length, nowNs);
    }

    private void schedule(long timeNs, int kind, int node, byte[] frame) {
        queue.add(new Event(timeNs, eventSeq++, kind, node, frame));
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
                    schedule(nowNs + config.latencyNs(), DELIVER, member, copy);
                    receivers++;
                }
            }
            stats.onWire(copy[HeaderFlyweight.TYPE_OFFSET], receivers, nowNs);
        }

        @Override
        public void unicast(int to, byte[] frame, int offset, int length) {
            stats.onWire(frame[offset + HeaderFlyweight.TYPE_OFFSET], 1, nowNs);
            schedule(nowNs + config.latencyNs(), DELIVER, to, Arrays.copyOfRange(frame, offset, offset + length));
        }

        @Override
        public void deliver(int origin, int group, long seqno, byte[] data, int offset, int length, Delivery how) {
            stats.delivered(node, origin, group, seqno, data, offset, length, how, nowNs);
        }

        @Override
        public void lost(int origin, int group, long seqno, long discoveredNs) {
            stats.lost(node);
        }

        @Override
        public void wakeAt(long deadlineNs) {
            schedule(Math.max(deadlineNs, nowNs), TIMER, node, null);
        }

        @Override
        public void lossDiscovered(int origin, int group, long seqno, long discoveredNs) {
            stats.discovered(node, new PacketId(origin, group, seqno), discoveredNs);
        }
    }

    /** A scheduled event; ties in time are broken by scheduling order, which keeps runs deterministic. */
    private static final class Event implements Comparable<Event> {
        final long timeNs;
        final long seq;
        final int kind;
        final int node;
        final byte[] frame;

        Event(long timeNs, long seq, int kind, int node, byte[] frame) {
            this.timeNs = timeNs;
            this.seq = seq;
            this.kind = kind;
            this.node = node;
            this.frame = frame;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(timeNs, o.timeNs);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
