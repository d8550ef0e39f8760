package io.ricochet.pbcast;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.sim.Payloads;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * A tiny scripted network for driving a few {@link PbcastEngine}s by hand, one group, zero latency: the test moves
 * time, fires rounds and decides which frames are dropped; every frame sent is logged with the round it was sent in.
 * Rounds are fired the way the paper draws them: every member gossips first, then the frames are delivered (and the
 * frames they cause, at the same instant) until the network is empty.
 */
final class ScriptedNetwork {
    /** One frame put on the wire; {@code to} is -1 for a multicast. */
    record Sent(int round, int from, int to, byte[] bytes) {
        int type() {
            return Bytes.getUnsignedByte(bytes, HeaderFlyweight.TYPE_OFFSET);
        }

        /** The seqno a DATA, RETRANSMIT, REQUEST, INFO or MCAST frame names. */
        long seqno() {
            return Bytes.getLong(bytes, DataFlyweight.SEQNO_OFFSET);
        }

        @Override
        public String toString() {
            return PbcastFrameType.name(type()) + " " + name(from) + "->" + (to < 0 ? "*" : name(to));
        }
    }

    /** What one engine handed to the application. */
    record Delivered(int origin, int group, long seqno, Delivery how, boolean intact) {
    }

    private record InFlight(int from, int to, byte[] bytes) {
    }

    final int group;
    final PbcastEngine[] engines;
    final List<List<Delivered>> delivered = new ArrayList<>();
    final List<List<PacketId>> lost = new ArrayList<>();
    final List<List<PacketId>> discovered = new ArrayList<>();
    final List<Sent> log = new ArrayList<>();
    private final Deque<InFlight> inFlight = new ArrayDeque<>();
    private Predicate<Sent> drop = s -> false;
    private int round;
    private long nowNs;

    /** {@code seeds.length} engines, nodes 0..n-1, all members of {@code group}. */
    ScriptedNetwork(PbcastConfig config, int group, long... seeds) {
        this.group = group;
        this.engines = new PbcastEngine[seeds.length];
        for (int node = 0; node < seeds.length; node++) {
            delivered.add(new ArrayList<>());
            lost.add(new ArrayList<>());
            discovered.add(new ArrayList<>());
            engines[node] = new PbcastEngine(node, config, new SplittableRandom(seeds[node]), new NodeOutbox(node));
        }
        for (PbcastEngine engine : engines) {
            engine.onMembership(MembershipEvent.join(group, engine.nodeId()), 0);
        }
        for (PbcastEngine engine : engines) {
            for (int member = 0; member < engines.length; member++) {
                engine.onMembership(MembershipEvent.join(group, member), 0);
            }
        }
    }

    /** Node names as in the paper's figures: A, B, C, ... */
    static String name(int node) {
        return String.valueOf((char) ('A' + node));
    }

    /** Frames matching {@code rule} are lost from now on, until the rule is changed. */
    void dropWhen(Predicate<Sent> rule) {
        drop = rule;
    }

    /** {@code node} multicasts a message whose payload {@link Payloads} can check; delivers it; returns its seqno. */
    long send(int node, int length) {
        long seqno = engines[node].sentTo(group);
        byte[] payload = new byte[length];
        Payloads.fill(payload, 0, length, node, group, seqno);
        long sent = engines[node].send(group, payload, 0, length, nowNs);
        flush();
        return sent;
    }

    /** The time at which every running member has a round due. */
    long nextRoundNs() {
        long latest = Long.MIN_VALUE;
        for (PbcastEngine engine : engines) {
            if (engine.nextDeadlineNs() != Long.MAX_VALUE) {
                latest = Math.max(latest, engine.nextDeadlineNs());
            }
        }
        return latest;
    }

    /** Moves time to {@code timeNs}; each member runs the round due by then; then the network is drained. */
    void fireRound(long timeNs) {
        nowNs = timeNs;
        round++;
        for (PbcastEngine engine : engines) {
            engine.onTimer(nowNs);
        }
        flush();
    }

    /** Delivers every frame in flight, and the frames they cause, at the current time. */
    void flush() {
        while (!inFlight.isEmpty()) {
            InFlight f = inFlight.poll();
            engines[f.to()].onPacket(f.bytes(), 0, f.bytes().length, nowNs);
        }
    }

    int round() {
        return round;
    }

    long nowNs() {
        return nowNs;
    }

    /** The frames of {@code type} sent in round {@code round} (0: before the first round), as "X->Y" strings. */
    List<String> sent(int round, int type) {
        return log.stream().filter(s -> s.round() == round && s.type() == type).map(Sent::toString)
                .map(s -> s.substring(s.indexOf(' ') + 1)).toList();
    }

    /** The seqnos {@code node} delivered, in delivery order. */
    List<Long> deliveredSeqnos(int node) {
        return delivered.get(node).stream().map(Delivered::seqno).toList();
    }

    private void transmit(int from, int to, byte[] frame, int offset, int length, boolean multicast) {
        byte[] bytes = Arrays.copyOfRange(frame, offset, offset + length);
        Sent sent = new Sent(round, from, multicast ? -1 : to, bytes);
        log.add(sent);
        for (int node = 0; node < engines.length; node++) {
            boolean addressed = multicast ? node != from : node == to;
            if (addressed && !drop.test(new Sent(round, from, node, bytes))) {
                inFlight.add(new InFlight(from, node, bytes));
            }
        }
    }

    /** One engine's outbox: frames go on the scripted wire; deliveries and losses are recorded. */
    private final class NodeOutbox implements Outbox {
        private final int node;

        NodeOutbox(int node) {
            this.node = node;
        }

        @Override
        public void multicast(int g, byte[] frame, int offset, int length) {
            transmit(node, -1, frame, offset, length, true);
        }

        @Override
        public void unicast(int to, byte[] frame, int offset, int length) {
            transmit(node, to, frame, offset, length, false);
        }

        @Override
        public void deliver(int origin, int g, long seqno, byte[] payload, int offset, int length, Delivery how) {
            boolean intact = Payloads.matches(payload, offset, length, origin, g, seqno, length);
            delivered.get(node).add(new Delivered(origin, g, seqno, how, intact));
        }

        @Override
        public void lost(int origin, int g, long seqno, long discoveredNs) {
            lost.get(node).add(new PacketId(origin, g, seqno));
        }

        @Override
        public void wakeAt(long deadlineNs) {
            // The test fires rounds itself.
        }

        @Override
        public void lossDiscovered(int origin, int g, long seqno, long discoveredNs) {
            discovered.get(node).add(new PacketId(origin, g, seqno));
        }
    }

    /** True for a DATA frame. */
    static boolean isData(Sent s) {
        return s.type() == FrameType.DATA;
    }
}
