package io.ricochet.sim;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * A few engines of one protocol on a scripted network, stepped by a test: the simulator's step-by-step mode. The
 * test forms the groups, sends chosen packets at chosen times (generated payloads, or its own: {@link #send(int, int,
 * byte[])}), drops chosen frames ({@link #dropNext}, or a rule, {@link #dropWhen}), duplicates some
 * ({@link #duplicateWhen}) and moves time event by event ({@link #step}), to a time ({@link #runUntil}) or until
 * nothing is left to do ({@link #drive}); it then reads what each node delivered, reported lost or found missing,
 * and every frame put on the wire, or watches each node's deliveries with their bytes as they happen
 * ({@link #observe}). Frames take a fixed one-hop latency (0 is allowed: then they arrive at the instant
 * they were sent, after the events already due then). Deterministic: the seed fixes every random choice.
 *
 * <p>Timers run as the engines ask ({@link Outbox#wakeAt}), unless the scenario is built with manual timers, in
 * which case only {@link #fireTimers} runs them: every engine at the same instant, then the frames they sent, as a
 * paper draws gossip rounds.
 *
 * <p>A frame reaches an engine as in the daemon: copied into an array of {@value #LENT_LENGTH} bytes and lent
 * ({@link ProtocolEngine#onLentPacket}); the array given back is scribbled over before it carries the next frame,
 * so an engine that kept a reference into a frame without keeping the array delivers or rebuilds corrupt bytes
 * ({@link Delivered#intact}). Longer frames go through {@link ProtocolEngine#onPacket}.
 */
public final class ScenarioNetwork {
    /** One frame put on the wire: {@code to} is -1 for a multicast; {@code tick} counts {@link #fireTimers} calls. */
    public record Frame(int tick, long timeNs, int from, int to, byte[] bytes) {
        /** The frame's type (FrameType or a protocol's own). */
        public int type() {
            return bytes[HeaderFlyweight.TYPE_OFFSET] & 0xFF;
        }
    }

    /** What one node handed to its application. */
    public record Delivered(int origin, int group, long seqno, Delivery how, long timeNs, boolean intact) {
    }

    /** Watches what one node's engine hands to its application, bytes included ({@link #observe}). */
    public interface Observer {
        /** A packet delivered; the bytes are valid only during the call. */
        void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how);

        /** A packet given up (reported lost). */
        void lost(int origin, int group, long seqno);
    }

    private final ProtocolEngine[] engines;
    private final long latencyNs;
    private final boolean manualTimers;
    private final EventQueue events = new EventQueue();
    private final List<List<Delivered>> delivered = new ArrayList<>();
    private final List<List<PacketId>> lost = new ArrayList<>();
    private final List<List<PacketId>> discovered = new ArrayList<>();
    private final List<Frame> wire = new ArrayList<>();
    private final Map<Long, Long> nextSeqno = new HashMap<>();
    private final List<Predicate<Frame>> dropOnce = new ArrayList<>();
    private Predicate<Frame> dropAlways = f -> false;
    private Predicate<Frame> duplicateAlways = f -> false;
    private long duplicateDelayNs;
    private final List<Observer> observers = new ArrayList<>();
    private int tick;
    /** The length of the arrays frames are lent in (the daemon's receive slots). */
    static final int LENT_LENGTH = 16 * 1024;
    private static final byte SCRIBBLE = 0x5A;
    /** Per node, the arrays given back, to lend again. */
    private final List<ArrayDeque<byte[]>> lendable = new ArrayList<>();

    /**
     * @param protocol     the protocol every node runs
     * @param nodes        nodes 0..nodes-1
     * @param latencyNs    one-hop latency of every frame
     * @param seed         fixes every random choice (one generator per node, split from it)
     * @param manualTimers whether timers run only through {@link #fireTimers}
     */
    public ScenarioNetwork(ProtocolFactory protocol, int nodes, long latencyNs, long seed, boolean manualTimers) {
        this(protocol, latencyNs, manualTimers, seeds(nodes, seed));
    }

    /** As above, with each node's own seed given (to search for the seeds a scenario needs). */
    public ScenarioNetwork(ProtocolFactory protocol, long latencyNs, boolean manualTimers, long... nodeSeeds) {
        this.engines = new ProtocolEngine[nodeSeeds.length];
        this.latencyNs = latencyNs;
        this.manualTimers = manualTimers;
        for (int node = 0; node < nodeSeeds.length; node++) {
            delivered.add(new ArrayList<>());
            lost.add(new ArrayList<>());
            discovered.add(new ArrayList<>());
            lendable.add(new ArrayDeque<>());
            observers.add(null);
            engines[node] = protocol.create(node, new SplittableRandom(nodeSeeds[node]), new NodeOutbox(node));
        }
    }

    private static long[] seeds(int nodes, long seed) {
        SplittableRandom root = new SplittableRandom(seed);
        long[] seeds = new long[nodes];
        for (int i = 0; i < nodes; i++) {
            seeds[i] = root.nextLong();
        }
        return seeds;
    }

    /**
     * Forms {@code group} of {@code members}, as the simulator does: each joins, then learns the others; each saw
     * the others join, so their streams start at 0.
     */
    public void group(int group, int... members) {
        for (int node : members) {
            engines[node].onMembership(MembershipEvent.join(group, node), now());
        }
        for (int node : members) {
            for (int other : members) {
                if (other != node) {
                    engines[node].onMembership(MembershipEvent.join(group, other), now());
                }
            }
        }
    }

    /** A membership change at one node, now. */
    public void membership(int node, MembershipEvent event) {
        engines[node].onMembership(event, now());
    }

    /**
     * {@code node} multicasts a packet of {@code length} bytes whose payload {@link Payloads} can check, now;
     * returns its seqno.
     */
    public long send(int node, int group, int length) {
        long seqno = nextSeqno.merge(StreamTable.key(node, group), 1L, Long::sum) - 1;
        byte[] payload = new byte[length];
        Payloads.fill(payload, 0, length, node, group, seqno);
        return sendNumbered(node, group, seqno, payload);
    }

    /**
     * {@code node} multicasts {@code payload} (the test's own bytes, not checked on delivery: {@link
     * Delivered#intact} is false unless they happen to be {@link Payloads}'), now; returns its seqno.
     */
    public long send(int node, int group, byte[] payload) {
        long seqno = nextSeqno.merge(StreamTable.key(node, group), 1L, Long::sum) - 1;
        return sendNumbered(node, group, seqno, payload);
    }

    private long sendNumbered(int node, int group, long seqno, byte[] payload) {
        long sent = engines[node].send(group, payload, 0, payload.length, now());
        if (sent != seqno) {
            throw new IllegalStateException("node " + node + " numbered a send " + sent + ", expected " + seqno
                    + ": send every packet of a scenario through it");
        }
        return sent;
    }

    /** The next frame from {@code from} to {@code to} of {@code type} is lost (once). */
    public void dropNext(int from, int to, int type) {
        dropOnce.add(f -> f.from() == from && f.to() == to && f.type() == type);
    }

    /** Every frame matching {@code rule} (its {@code to} is the receiver) is lost from now on, until changed. */
    public void dropWhen(Predicate<Frame> rule) {
        dropAlways = rule;
    }

    /**
     * Every frame matching {@code rule} (its {@code to} is the receiver) arrives twice from now on, until changed:
     * the copy {@code delayNs} after the frame itself. The rule is asked whether or not the frame is dropped, so a
     * frame both dropped and duplicated arrives once, late (reordered). A rule that draws at random is seeded by the
     * test, and asked in a fixed order: runs stay deterministic.
     */
    public void duplicateWhen(Predicate<Frame> rule, long delayNs) {
        if (delayNs < 0) {
            throw new IllegalArgumentException("delayNs = " + delayNs + ": must be 0 or more");
        }
        duplicateAlways = rule;
        duplicateDelayNs = delayNs;
    }

    /**
     * {@code observer} sees what {@code node}'s engine delivers (with the payload's bytes) and gives up, as it
     * happens, besides the recording ({@link #delivered}, {@link #lost}); null stops it.
     */
    public void observe(int node, Observer observer) {
        observers.set(node, observer);
    }

    /** Processes the next event (a frame arriving or a timer); false if there is none. */
    public boolean step() {
        return events.step();
    }

    /** Processes every event due at or before {@code timeNs}, then moves time there. */
    public void runUntil(long timeNs) {
        events.runUntil(timeNs);
    }

    /** Moves time by {@code deltaNs} ({@link #runUntil}). */
    public void advance(long deltaNs) {
        runUntil(now() + deltaNs);
    }

    /** Steps until no event is left; fails after {@code maxSteps} (a livelock, or timers that never stop). */
    public void drive(int maxSteps) {
        for (int i = 0; i < maxSteps; i++) {
            if (!step()) {
                return;
            }
        }
        throw new IllegalStateException("still busy after " + maxSteps + " steps at " + now() + " ns");
    }

    /** With manual timers: every engine's {@code onTimer} at {@code timeNs}, in node order, then the frames. */
    public void fireTimers(long timeNs) {
        runUntil(timeNs);
        tick++;
        for (ProtocolEngine engine : engines) {
            engine.onTimer(timeNs);
        }
        runUntil(timeNs + latencyNs);
    }

    public long now() {
        return events.nowNs();
    }

    /** How many times {@link #fireTimers} ran. */
    public int tick() {
        return tick;
    }

    public ProtocolEngine engine(int node) {
        return engines[node];
    }

    /** The latest deadline any engine has (the instant by which every engine has a timer due), or -1. */
    public long latestDeadlineNs() {
        long latest = -1;
        for (ProtocolEngine engine : engines) {
            if (engine.nextDeadlineNs() != Long.MAX_VALUE) {
                latest = Math.max(latest, engine.nextDeadlineNs());
            }
        }
        return latest;
    }

    /** What {@code node} delivered, in order. */
    public List<Delivered> delivered(int node) {
        return delivered.get(node);
    }

    /** The seqnos {@code node} delivered, in order. */
    public List<Long> deliveredSeqnos(int node) {
        return delivered.get(node).stream().map(Delivered::seqno).toList();
    }

    /** The packets {@code node} reported lost to its application. */
    public List<PacketId> lost(int node) {
        return lost.get(node);
    }

    /** The losses {@code node}'s engine discovered. */
    public List<PacketId> discovered(int node) {
        return discovered.get(node);
    }

    /** Every frame put on the wire, in order (dropped ones included). */
    public List<Frame> wire() {
        return wire;
    }

    /** The frames of {@code type} put on the wire. */
    public List<Frame> sent(int type) {
        return wire.stream().filter(f -> f.type() == type).toList();
    }

    private void transmit(int from, int to, byte[] frame, int offset, int length) {
        byte[] bytes = Arrays.copyOfRange(frame, offset, offset + length);
        long nowNs = now();
        wire.add(new Frame(tick, nowNs, from, to, bytes));
        for (int node = 0; node < engines.length; node++) {
            boolean addressed = to < 0 ? node != from : node == to;
            if (!addressed) {
                continue;
            }
            Frame toNode = new Frame(tick, nowNs, from, node, bytes);
            int receiver = node;
            if (!dropped(toNode)) {
                events.at(nowNs + latencyNs, () -> receive(receiver, bytes));
            }
            if (duplicateAlways.test(toNode)) {
                events.at(nowNs + latencyNs + duplicateDelayNs, () -> receive(receiver, bytes));
            }
        }
    }

    /** Hands {@code frame} to the engine of {@code node} in a lent array, scribbled over once given back. */
    private void receive(int node, byte[] frame) {
        if (frame.length > LENT_LENGTH) {
            engines[node].onPacket(frame, 0, frame.length, now());
            return;
        }
        byte[] lent = lendable.get(node).isEmpty() ? new byte[LENT_LENGTH] : lendable.get(node).pop();
        System.arraycopy(frame, 0, lent, 0, frame.length);
        byte[] back = engines[node].onLentPacket(lent, frame.length, now());
        if (back.length != LENT_LENGTH) {
            throw new IllegalStateException("node " + node + " gave back " + back.length + " bytes for a lent array of "
                    + LENT_LENGTH);
        }
        Arrays.fill(back, SCRIBBLE);
        lendable.get(node).push(back);
    }

    private boolean dropped(Frame frame) {
        for (int i = 0; i < dropOnce.size(); i++) {
            if (dropOnce.get(i).test(frame)) {
                dropOnce.remove(i);
                return true;
            }
        }
        return dropAlways.test(frame);
    }

    /** One node's outbox: frames go on the scripted wire; deliveries, losses and discoveries are recorded. */
    private final class NodeOutbox implements Outbox {
        private final int node;

        NodeOutbox(int node) {
            this.node = node;
        }

        @Override
        public void multicast(int group, byte[] frame, int offset, int length) {
            transmit(node, -1, frame, offset, length);
        }

        @Override
        public void unicast(int to, byte[] frame, int offset, int length) {
            transmit(node, to, frame, offset, length);
        }

        @Override
        public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length,
                            Delivery how) {
            boolean intact = Payloads.matches(payload, offset, length, origin, group, seqno, length);
            delivered.get(node).add(new Delivered(origin, group, seqno, how, now(), intact));
            Observer observer = observers.get(node);
            if (observer != null) {
                observer.deliver(origin, group, seqno, payload, offset, length, how);
            }
        }

        @Override
        public void lost(int origin, int group, long seqno, long discoveredNs) {
            lost.get(node).add(new PacketId(origin, group, seqno));
            Observer observer = observers.get(node);
            if (observer != null) {
                observer.lost(origin, group, seqno);
            }
        }

        @Override
        public void wakeAt(long deadlineNs) {
            if (!manualTimers) {
                events.at(Math.max(deadlineNs, now()), () -> engines[node].onTimer(now()));
            }
        }

        @Override
        public void lossDiscovered(int origin, int group, long seqno, long discoveredNs) {
            discovered.get(node).add(new PacketId(origin, group, seqno));
        }
    }
}
