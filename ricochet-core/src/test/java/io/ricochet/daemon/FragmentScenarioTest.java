package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.MessageId;
import io.ricochet.engine.Counter;
import io.ricochet.engine.Counters;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.lec.LecCounter;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.sim.ScenarioNetwork;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Fragmentation and reassembly end to end (issue 34): messages of random sizes cut into datagrams as the daemon cuts
 * them (small ones alone or bundled, large ones as fragments), sent through Ricochet engines (LEC, with or without
 * NAK) in the scenario network with frames lost, duplicated and reordered at random, and what each receiver's
 * engine delivers or gives up fed into its own {@link MessageStreams}, with an unordered and a FIFO subscriber.
 * The property, for every receiver and sender, as in {@link MessageStreamsTest}: each message is delivered whole
 * once or named by one LOST, never both; every message whose datagrams all came is delivered; a LOST naming no
 * message only for a given-up datagram right after another given-up one; FIFO gets the messages and LOSTs in the
 * sender's order. With NAK on and light loss nothing is given up, so every message is delivered; with NAK off, or
 * with a receiver that cannot get a run of datagrams, whole messages are reported LOST.
 *
 * <p>Sizes: most runs draw fragmented messages up to 256 KiB (up to 522 fragments of the 512-byte payload used
 * here, which keeps the whole class at a few seconds); one run sends one message of 16 MiB, the daemon's
 * max-message (33 355 fragments), among small ones of two senders. Every random choice comes from the run's seed.
 */
class FragmentScenarioTest {
    private static final int G = 9;
    private static final int NODES = 5;
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final long LATENCY_NS = 50 * US;
    /** Between two sends of the application (when the engine is ready). */
    private static final long SEND_GAP_NS = 20 * US;
    private static final int PAYLOAD = 512;
    private static final int PIECE = PAYLOAD - BundleFormat.FRAGMENT_HEADER;
    private static final int HUGE = MessageLimits.DEFAULT.maxMessage();
    /** Small messages at the end of a NAK-off stream, never lost: they reveal every earlier loss (no SESSION). */
    private static final int TAIL = 24;

    // ------------------------------------------------------------------ runs

    /** How one run goes. */
    private record Plan(long seed, boolean nak, double loss, double duplicates, int senders, int units,
                        int maxSize, boolean huge, int cutOff) {
    }

    /** What the runs of a test saw, summed. */
    private static final class Totals {
        final Map<Counter, Long> engine = new HashMap<>();
        final Map<Counter, Long> daemon = new HashMap<>();
        long givenUp;
        long datagrams;
        long lostFragmented;
        long fragmentedMessages;

        long engine(Counter c) {
            return engine.getOrDefault(c, 0L);
        }

        long daemon(Counter c) {
            return daemon.getOrDefault(c, 0L);
        }

        @Override
        public String toString() {
            return "xor " + engine(LecCounter.RECOVERED_BY_XOR) + ", nak " + engine(EngineCounter.RECOVERED_BY_NAK)
                    + ", duplicates " + engine(EngineCounter.DUPLICATES)
                    + ", late " + engine(EngineCounter.LATE_ARRIVALS)
                    + ", given up " + givenUp + ", reassembled " + daemon(DaemonCounter.MESSAGES_REASSEMBLED)
                    + ", messages lost " + daemon(DaemonCounter.MESSAGES_LOST) + ", fragmented sent "
                    + fragmentedMessages + ", datagrams sent " + datagrams;
        }
    }

    private static RicochetConfig config(boolean nak) {
        // The daemon's flow control (stability reports and a send window); LEC gives up soon with NAK off.
        return RicochetConfig.builder().maxPayload(PAYLOAD).nakEnabled(nak).giveUpNs(300 * MS)
                .stabilityIntervalNs(100 * MS).stabilityEvery(128).sendWindow(4096).build();
    }

    /**
     * Runs a plan, checks the property at every receiver, and adds what it saw to {@code totals}; returns the
     * receivers, for more checks.
     */
    private static Receiver[] run(Plan plan, Totals totals) {
        SplittableRandom random = new SplittableRandom(plan.seed());
        ScenarioNetwork net = new ScenarioNetwork(new RicochetProtocol(config(plan.nak())), NODES, LATENCY_NS,
                random.nextLong(), false);
        int[] members = new int[NODES];
        for (int n = 0; n < NODES; n++) {
            members[n] = n;
        }
        net.group(G, members);
        Sent[] sent = new Sent[plan.senders()];
        for (int s = 0; s < plan.senders(); s++) {
            sent[s] = new Sent(s, random.split(), plan.units(), plan.maxSize(), plan.huge() && s == 0,
                    plan.nak() ? 0 : TAIL);
            totals.fragmentedMessages += sent[s].fragmented;
        }
        Receiver[] receivers = new Receiver[NODES];
        for (int n = 0; n < NODES; n++) {
            receivers[n] = new Receiver(n, net.engine(n), sent, net::now);
            net.observe(n, receivers[n].engineSide());
        }
        net.dropWhen(lossRule(plan, random.split(), sent));
        SplittableRandom dup = random.split();
        net.duplicateWhen(f -> isRecovery(f.type()) && dup.nextDouble() < plan.duplicates(),
                100 * US + dup.nextLong(3 * MS));

        sendAll(net, sent, random.split());
        // Past the time a loss discovered last (by a SESSION after the stream went idle) takes to be given up.
        net.advance(2 * config(plan.nak()).nakSettings().giveUpAfterNs());

        for (Receiver r : receivers) {
            for (Sent s : sent) {
                if (s.origin != r.node) {
                    r.check(s, "seed " + plan.seed() + ", node " + r.node + ", origin " + s.origin);
                }
            }
            assertFalse(r.streams.sweep(), "node " + r.node + ": nothing left waiting");
            assertEquals(0, r.streams.reassemblyBytes());
            assertEquals(0, r.streams.heldBytes());
            for (Counter c : List.of(LecCounter.RECOVERED_BY_XOR, EngineCounter.RECOVERED_BY_NAK,
                    EngineCounter.DUPLICATES, EngineCounter.LATE_ARRIVALS)) {
                totals.engine.merge(c, net.engine(r.node).counters().get(c), Long::sum);
            }
            for (Counter c : List.of(DaemonCounter.MESSAGES_REASSEMBLED, DaemonCounter.MESSAGES_LOST)) {
                totals.daemon.merge(c, r.counters.get(c), Long::sum);
            }
            for (Set<Long> lost : r.engineLost.values()) {
                totals.givenUp += lost.size();
            }
            totals.lostFragmented += r.lostFragmented;
        }
        totals.datagrams += Arrays.stream(sent).mapToLong(s -> s.datagrams.size()).sum();
        return receivers;
    }

    private static boolean isRecovery(int type) {
        return type == FrameType.DATA || type == FrameType.REPAIR || type == FrameType.RETRANSMIT;
    }

    /**
     * Frames lost at random: DATA, REPAIR, RETRANSMIT and NAK at the plan's rate, to every receiver; with NAK off,
     * not the DATA of the never-lost tail; with a cut-off, node 3 also gets none of the {@code cutOff} datagrams of
     * node 0's stream from a third of it on, neither first copies nor retransmissions.
     */
    private static Predicate<ScenarioNetwork.Frame> lossRule(Plan plan, SplittableRandom random, Sent[] sent) {
        DataFlyweight data = new DataFlyweight();
        long cutFrom = sent[0].datagrams.size() / 3;
        return f -> {
            int type = f.type();
            if (type == FrameType.DATA || type == FrameType.RETRANSMIT) {
                data.wrap(f.bytes(), 0);
                if (plan.cutOff() > 0 && f.to() == 3 && data.origin() == 0 && data.seqno() >= cutFrom
                        && data.seqno() < cutFrom + plan.cutOff()) {
                    return true;
                }
                if (!plan.nak() && data.seqno() >= sent[data.origin()].tailStart) {
                    return false;
                }
            }
            return (isRecovery(type) || type == FrameType.NAK) && random.nextDouble() < plan.loss();
        };
    }

    /**
     * The senders' datagrams, interleaved at random, each sent once its engine is ready ({@code sendReadyAtNs}: the
     * retransmit buffer and the send window have room), as the daemon paces its application.
     */
    private static void sendAll(ScenarioNetwork net, Sent[] sent, SplittableRandom random) {
        List<Sent> left = new ArrayList<>(Arrays.asList(sent));
        while (!left.isEmpty()) {
            Sent s = left.get(random.nextInt(left.size()));
            long now = net.now();
            long ready = net.engine(s.origin).sendReadyAtNs(G, now);
            if (ready > now) {
                net.runUntil(Math.min(ready, now + MS));
                continue;
            }
            byte[] d = s.datagrams.get(s.next);
            s.datagrams.set(s.next, null);
            assertEquals(s.next, net.send(s.origin, G, d));
            if (++s.next == s.datagrams.size()) {
                left.remove(s);
            }
            net.advance(SEND_GAP_NS);
        }
    }

    // ------------------------------------------------------------------ the sender's side

    /** A unit of the stream: one datagram of small messages, or a fragmented message's datagrams. */
    private record Unit(long first, long end, long[] ids, boolean fragmented) {
    }

    /** One sender's stream: messages of random sizes, cut into datagrams as the daemon cuts them. */
    private static final class Sent {
        final int origin;
        final List<byte[]> datagrams = new ArrayList<>();
        final Map<Long, byte[]> messages = new HashMap<>();
        final List<Unit> units = new ArrayList<>();
        final long tailStart;
        int fragmented;
        int next;

        Sent(int origin, SplittableRandom random, int count, int maxSize, boolean huge, int tail) {
            this.origin = origin;
            int hugeAt = huge ? random.nextInt(count) : -1;
            for (int u = 0; u < count; u++) {
                if (u == hugeAt) {
                    fragment(bytes(random, HUGE));
                    continue;
                }
                int kind = random.nextInt(20);
                if (kind < 11) {
                    single(bytes(random, random.nextInt(PAYLOAD)));
                } else if (kind < 14) {
                    bundle(random);
                } else {
                    fragment(bytes(random, fragmentedSize(random, maxSize)));
                }
            }
            tailStart = datagrams.size();
            for (int t = 0; t < tail; t++) {
                single(bytes(random, random.nextInt(16)));
            }
        }

        /** Fragment counts at the edges now and then (a piece full to the byte, one byte over), else log-uniform. */
        private static int fragmentedSize(SplittableRandom random, int maxSize) {
            switch (random.nextInt(8)) {
                case 0:
                    return PAYLOAD;
                case 1:
                    return (2 + random.nextInt(4)) * PIECE;
                case 2:
                    return (2 + random.nextInt(4)) * PIECE + 1;
                default:
                    double log = Math.log(PAYLOAD) + random.nextDouble() * (Math.log(maxSize) - Math.log(PAYLOAD));
                    return (int) Math.min(maxSize, Math.exp(log));
            }
        }

        private static byte[] bytes(SplittableRandom random, int size) {
            byte[] b = new byte[size];
            for (int i = 0; i < size; i += 8) {
                long word = random.nextLong();
                for (int j = i; j < Math.min(size, i + 8); j++) {
                    b[j] = (byte) word;
                    word >>>= 8;
                }
            }
            return b;
        }

        private void single(byte[] message) {
            long seqno = datagrams.size();
            byte[] d = new byte[BundleFormat.KIND + message.length];
            d[0] = BundleFormat.SINGLE;
            System.arraycopy(message, 0, d, BundleFormat.KIND, message.length);
            datagrams.add(d);
            long id = MessageId.of(seqno, 0);
            messages.put(id, message);
            units.add(new Unit(seqno, seqno + 1, new long[] {id}, false));
        }

        /** 2 to 6 small messages in one datagram ({@link BundleFormat#BUNDLE}). */
        private void bundle(SplittableRandom random) {
            long seqno = datagrams.size();
            int count = 2 + random.nextInt(5);
            int each = (PAYLOAD - BundleFormat.KIND) / count - BundleFormat.LENGTH;
            byte[] d = new byte[PAYLOAD];
            d[0] = BundleFormat.BUNDLE;
            int at = BundleFormat.KIND;
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                byte[] message = bytes(random, random.nextInt(each + 1));
                BundleFormat.writeLength(d, at, message.length);
                System.arraycopy(message, 0, d, at + BundleFormat.LENGTH, message.length);
                at += BundleFormat.LENGTH + message.length;
                ids[i] = MessageId.of(seqno, i);
                messages.put(ids[i], message);
            }
            datagrams.add(Arrays.copyOf(d, at));
            units.add(new Unit(seqno, seqno + 1, ids, false));
        }

        private void fragment(byte[] message) {
            long first = datagrams.size();
            int count = BundleFormat.fragmentsOf(message.length, PAYLOAD);
            for (int i = 0; i < count; i++) {
                int length = Math.min(PIECE, message.length - i * PIECE);
                byte[] d = new byte[BundleFormat.FRAGMENT_HEADER + length];
                BundleFormat.writeFragmentHeader(d, 0, count, i);
                System.arraycopy(message, i * PIECE, d, BundleFormat.FRAGMENT_HEADER, length);
                datagrams.add(d);
            }
            long id = MessageId.of(first, 0);
            messages.put(id, message);
            units.add(new Unit(first, datagrams.size(), new long[] {id}, true));
            fragmented++;
        }
    }

    // ------------------------------------------------------------------ the receiver's side

    /**
     * One node's daemon side: its engine's deliveries and losses into its own MessageStreams, whose unordered and
     * FIFO subscribers are recorded per sender; bytes are checked as they are delivered.
     */
    private static final class Receiver implements MessageStreams.Subscribers {
        final int node;
        final Counters counters = new Counters(DaemonCounter.ALL);
        final MessageStreams streams;
        private final Sent[] sent;
        final Map<Integer, Set<Long>> engineDelivered = new HashMap<>();
        final Map<Integer, Set<Long>> engineLost = new HashMap<>();
        final Map<Integer, Set<Long>> delivered = new HashMap<>();
        final Map<Integer, Set<Long>> lost = new HashMap<>();
        final Map<Integer, List<String>> fifo = new HashMap<>();
        long lostFragmented;

        Receiver(int node, ProtocolEngine engine, Sent[] sent, java.util.function.LongSupplier clock) {
            this.node = node;
            this.sent = sent;
            MessageLimits limits = MessageLimits.DEFAULT;
            this.streams = new MessageStreams(this, MessageStreams.EngineStreams.of(engine), counters, clock,
                    limits.maxMessage(), PAYLOAD, limits.reassemblyBytes(), limits.reassemblyBytesPerOrigin(),
                    limits.fifoBytes());
        }

        private static Set<Long> of(Map<Integer, Set<Long>> map, int origin) {
            return map.computeIfAbsent(origin, o -> new HashSet<>());
        }

        // ---- from the engine

        ScenarioNetwork.Observer engineSide() {
            return new ScenarioNetwork.Observer() {
                @Override
                public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length,
                                    Delivery how) {
                    datagram(origin, group, seqno, payload, offset, length, how);
                }

                @Override
                public void lost(int origin, int group, long seqno) {
                    givenUp(origin, group, seqno);
                }
            };
        }

        private void datagram(int origin, int group, long seqno, byte[] payload, int offset, int length,
                              Delivery how) {
            assertFalse(of(engineLost, origin).contains(seqno), what(origin) + ": datagram " + seqno + " lost, then "
                    + how);
            assertTrue(of(engineDelivered, origin).add(seqno), what(origin) + ": datagram " + seqno + " twice");
            streams.delivered(origin, group, seqno, payload, offset, length);
        }

        private void givenUp(int origin, int group, long seqno) {
            assertFalse(of(engineDelivered, origin).contains(seqno), what(origin) + ": " + seqno + " delivered, lost");
            assertTrue(of(engineLost, origin).add(seqno), what(origin) + ": datagram " + seqno + " lost twice");
            streams.lost(origin, group, seqno);
        }

        // ---- from MessageStreams

        @Override
        public void deliver(int origin, int group, long id, byte[] bytes, int offset, int length, int audience) {
            byte[] expected = sent[origin].messages.get(id);
            assertNotNull(expected, what(origin) + ": delivered " + id + ", no message's id");
            assertTrue(Arrays.equals(bytes, offset, offset + length, expected, 0, expected.length),
                    what(origin) + ": message " + id + " delivered with other bytes (" + length + " of "
                            + expected.length + ")");
            if (audience != MessageStreams.FIFO) {
                assertFalse(of(lost, origin).contains(id), what(origin) + ": " + id + " lost, then delivered");
                assertTrue(of(delivered, origin).add(id), what(origin) + ": message " + id + " delivered twice");
            }
            if (audience != MessageStreams.UNORDERED) {
                fifo.computeIfAbsent(origin, o -> new ArrayList<>()).add("D:" + id);
            }
        }

        @Override
        public void lost(int origin, int group, long id) {
            assertFalse(of(delivered, origin).contains(id), what(origin) + ": " + id + " delivered, then lost");
            assertTrue(of(lost, origin).add(id), what(origin) + ": LOST " + id + " twice");
            fifo.computeIfAbsent(origin, o -> new ArrayList<>()).add("L:" + id);
        }

        @Override
        public boolean hasFifo(int group) {
            return true;
        }

        private String what(int origin) {
            return "node " + node + ", origin " + origin;
        }

        /** The property, for the stream of {@code s}, once the run is over. */
        void check(Sent s, String what) {
            Set<Long> given = of(engineLost, s.origin);
            Set<Long> came = of(engineDelivered, s.origin);
            assertEquals(s.datagrams.size(), given.size() + came.size(), what + ": every datagram resolved");
            Set<Long> lostIds = of(lost, s.origin);
            Set<Long> deliveredIds = of(delivered, s.origin);
            List<String> expectedFifo = new ArrayList<>();
            Set<Long> named = new HashSet<>();
            for (Unit u : s.units) {
                boolean allCame = true;
                for (long seqno = u.first(); seqno < u.end(); seqno++) {
                    allCame &= !given.contains(seqno);
                }
                if (allCame) {
                    for (long id : u.ids()) {
                        assertTrue(deliveredIds.contains(id), what + ": message " + id + " came, not delivered");
                        assertFalse(lostIds.contains(id), what + ": " + id + " delivered and lost");
                        expectedFifo.add("D:" + id);
                    }
                } else {
                    long id = u.ids()[0];
                    for (long other : u.ids()) {
                        assertFalse(deliveredIds.contains(other), what + ": " + other + " delivered, a datagram lost");
                    }
                    assertTrue(lostIds.contains(id), what + ": " + id + " neither delivered nor reported LOST");
                    named.add(id);
                    expectedFifo.add("L:" + id);
                    if (u.fragmented()) {
                        lostFragmented++;
                    }
                }
            }
            // A LOST naming no message: a given-up datagram right after another given-up one.
            for (long id : lostIds) {
                if (!named.contains(id)) {
                    long seqno = MessageId.datagram(id);
                    assertTrue(MessageId.index(id) == 0 && given.contains(seqno) && given.contains(seqno - 1),
                            what + ": stray LOST " + id);
                }
            }
            List<String> fifoMessages = new ArrayList<>(fifo.getOrDefault(s.origin, List.of()));
            fifoMessages.removeIf(e -> e.startsWith("L:") && !named.contains(Long.parseLong(e.substring(2))));
            assertEquals(expectedFifo, fifoMessages, what + ": FIFO order");
        }
    }

    // ------------------------------------------------------------------ tests

    @Test
    void withNakEveryMessageIsDeliveredWholeOnceUnderLossDuplicationAndReorderingRepairedByXorAndNak() {
        Totals totals = new Totals();
        for (long seed = 1; seed <= 10; seed++) {
            double loss = 0.01 + 0.01 * (seed % 5);
            run(new Plan(seed, true, loss, 0.02, 2, 60, 256 << 10, false, 0), totals);
        }
        assertEquals(0, totals.givenUp, "nothing given up: " + totals);
        assertEquals(0, totals.daemon(DaemonCounter.MESSAGES_LOST), totals.toString());
        assertTrue(totals.engine(LecCounter.RECOVERED_BY_XOR) > 0, totals.toString());
        assertTrue(totals.engine(EngineCounter.RECOVERED_BY_NAK) > 0, totals.toString());
        assertTrue(totals.engine(EngineCounter.DUPLICATES) > 0, totals.toString());
        assertEquals(totals.fragmentedMessages * (NODES - 1), totals.daemon(DaemonCounter.MESSAGES_REASSEMBLED),
                "every fragmented message reassembled at every other node: " + totals);
    }

    @Test
    void aMessageOf16MiBAmongSmallOnesOfTwoSendersArrivesWholeOnceAtEveryNode() {
        Totals totals = new Totals();
        run(new Plan(101, true, 0.02, 0.01, 2, 40, 64 << 10, true, 0), totals);
        assertEquals(0, totals.givenUp, totals.toString());
        assertEquals(0, totals.daemon(DaemonCounter.MESSAGES_LOST), totals.toString());
        assertEquals(totals.fragmentedMessages * (NODES - 1), totals.daemon(DaemonCounter.MESSAGES_REASSEMBLED),
                totals.toString());
        assertTrue(totals.datagrams > BundleFormat.fragmentsOf(HUGE, PAYLOAD), totals.toString());
    }

    @Test
    void withNakOffEachMessageWithAGivenUpDatagramIsReportedByOneLostNamingItAndNeverPartlyDelivered() {
        Totals totals = new Totals();
        for (long seed = 201; seed <= 210; seed++) {
            double loss = 0.01 + 0.01 * (seed % 5);
            run(new Plan(seed, false, loss, 0.02, 2, 60, 128 << 10, false, 0), totals);
        }
        assertTrue(totals.givenUp > 0, totals.toString());
        assertTrue(totals.lostFragmented > 0, "whole fragmented messages reported LOST: " + totals);
        assertTrue(totals.daemon(DaemonCounter.MESSAGES_REASSEMBLED) > 0, totals.toString());
        assertTrue(totals.engine(LecCounter.RECOVERED_BY_XOR) > 0, totals.toString());
        assertEquals(0, totals.engine(EngineCounter.RECOVERED_BY_NAK), totals.toString());
    }

    @Test
    void aReceiverThatCannotGetARunOfDatagramsHasEveryMessageInItReportedByOneLostAndTheRestDelivered() {
        Totals totals = new Totals();
        int cutOff = 150;
        for (long seed = 301; seed <= 303; seed++) {
            Receiver[] receivers = run(new Plan(seed, true, 0.01, 0.01, 2, 80, 64 << 10, false, cutOff), totals);
            for (Receiver r : receivers) {
                for (Map.Entry<Integer, Set<Long>> e : r.engineLost.entrySet()) {
                    assertTrue(e.getValue().isEmpty() || r.node == 3 && e.getKey() == 0,
                            "seed " + seed + ": node " + r.node + " gave up " + e.getKey() + ":" + e.getValue());
                }
            }
            Set<Long> cut = Receiver.of(receivers[3].engineLost, 0);
            assertTrue(cut.size() > cutOff / 2, "seed " + seed + ": most of the run given up, " + cut.size());
            assertTrue(cut.stream().mapToLong(x -> x).max().getAsLong() - cut.stream().mapToLong(x -> x).min()
                    .getAsLong() < cutOff, "seed " + seed + ": only the run given up");
        }
        assertTrue(totals.lostFragmented > 0, totals.toString());
        assertTrue(totals.engine(EngineCounter.RECOVERED_BY_NAK) > 0, totals.toString());
    }

    @Test
    void aReceiverThatCannotGetTheLastTwoThirdsOfAStreamReportsItsMessagesLostAndIsLeftWaitingForNothing() {
        Totals totals = new Totals();
        Receiver[] receivers = run(new Plan(304, true, 0.01, 0.01, 2, 40, 32 << 10, false, 1 << 20), totals);
        // run() checked the property, and that no stream is left waiting once its last datagrams were given up.
        assertTrue(Receiver.of(receivers[3].engineLost, 0).size() > 20, totals.toString());
        assertTrue(totals.lostFragmented > 0, totals.toString());
    }
}
