package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.MessageId;
import io.ricochet.engine.Counters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Messages out of the engine's datagrams: small ones as they come, fragmented ones whole once or one LOST naming
 * them, FIFO subscribers in the sender's order with each LOST in its place, under random loss and reordering of the
 * datagrams the engine resolves (property tests with seeds), a sender that goes away in the middle of a message, a
 * stream that starts after a message began, bounded memory, and fuzzed fragments.
 */
class MessageStreamsTest {
    private static final int ORIGIN = 7;
    private static final int GROUP = 3;
    /** A small datagram payload, so messages of a few hundred bytes take many fragments. */
    private static final int MAX_PAYLOAD = 64;
    private static final int PIECE = MAX_PAYLOAD - BundleFormat.FRAGMENT_HEADER;

    private final Counters counters = new Counters(DaemonCounter.ALL);
    /** What each audience got: "D:id:hash" or "L:id", in order. */
    private final List<String> unordered = new ArrayList<>();
    private final List<String> fifo = new ArrayList<>();
    private final Map<Long, byte[]> delivered = new HashMap<>();
    private boolean hasFifo = true;
    /** Whether a second delivery of an id fails the test (off for fuzzing, whose "engine" repeats seqnos). */
    private boolean strict = true;
    private long engineStart = 0;
    private long engineId = 1;
    private long timeNs;
    /** Whether the fake engine resolves every datagram; false: best effort, as ipmc. */
    private boolean resolvesAll = true;

    private final MessageStreams.Subscribers subscribers = new MessageStreams.Subscribers() {
        @Override
        public void deliver(int origin, int group, long id, byte[] bytes, int offset, int length, int audience) {
            byte[] copy = Arrays.copyOfRange(bytes, offset, offset + length);
            String entry = "D:" + id + ":" + Arrays.hashCode(copy);
            if (audience != MessageStreams.FIFO) {
                unordered.add(entry);
                if (strict && delivered.put(id, copy) != null) {
                    throw new AssertionError("message " + id + " delivered twice");
                }
            }
            if (audience != MessageStreams.UNORDERED) {
                fifo.add(entry);
            }
        }

        @Override
        public void lost(int origin, int group, long id) {
            unordered.add("L:" + id);
            fifo.add("L:" + id);
        }

        @Override
        public boolean hasFifo(int group) {
            return hasFifo;
        }
    };

    private MessageStreams streams(int maxMessage, long total, long perOrigin, long fifoBytes) {
        return new MessageStreams(subscribers, new MessageStreams.EngineStreams() {
            @Override
            public long start(int origin, int group) {
                return engineStart;
            }

            @Override
            public long id(int origin, int group) {
                return engineId;
            }

            @Override
            public boolean resolvesAll() {
                return resolvesAll;
            }
        }, counters, () -> timeNs, maxMessage, MAX_PAYLOAD, total, perOrigin, fifoBytes);
    }

    private MessageStreams streams() {
        return streams(1 << 20, 1 << 20, 1 << 20, 1 << 20);
    }

    /** A sender's stream: messages of the given sizes, as the daemon cuts them into datagrams. */
    private static final class Sent {
        final List<byte[]> datagrams = new ArrayList<>();
        /** Message id to its bytes, and to the datagram seqnos it took. */
        final Map<Long, byte[]> messages = new HashMap<>();
        final Map<Long, long[]> spans = new HashMap<>();
        final List<Long> order = new ArrayList<>();

        Sent(Random random, int count, int maxSize) {
            for (int m = 0; m < count; m++) {
                int size = random.nextInt(4) == 0 ? 1 + random.nextInt(maxSize) : random.nextInt(MAX_PAYLOAD);
                byte[] message = new byte[size];
                random.nextBytes(message);
                add(message);
            }
        }

        void add(byte[] message) {
            long first = datagrams.size();
            long id = MessageId.of(first, 0);
            messages.put(id, message);
            order.add(id);
            if (message.length <= MAX_PAYLOAD - BundleFormat.KIND) {
                byte[] d = new byte[message.length + 1];
                d[0] = BundleFormat.SINGLE;
                System.arraycopy(message, 0, d, 1, message.length);
                datagrams.add(d);
            } else {
                int count = BundleFormat.fragmentsOf(message.length, MAX_PAYLOAD);
                for (int i = 0; i < count; i++) {
                    int length = Math.min(PIECE, message.length - i * PIECE);
                    byte[] d = new byte[BundleFormat.FRAGMENT_HEADER + length];
                    BundleFormat.writeFragmentHeader(d, 0, count, i);
                    System.arraycopy(message, i * PIECE, d, BundleFormat.FRAGMENT_HEADER, length);
                    datagrams.add(d);
                }
            }
            spans.put(id, new long[] {first, datagrams.size()});
        }
    }

    /**
     * The property: with datagrams lost at random and the rest resolved in a random order (the engine's), each
     * message is delivered whole once or named by one LOST, never both; every message whose datagrams all came is
     * delivered; a LOST that names no message covers only given-up datagrams after a given-up one; FIFO gets the
     * same messages and LOSTs in the sender's order.
     */
    @Test
    void everyMessageIsDeliveredWholeOnceOrReportedLostOnceUnderRandomLossAndReordering() {
        for (long seed = 1; seed <= 300; seed++) {
            unordered.clear();
            fifo.clear();
            delivered.clear();
            Random random = new Random(seed);
            Sent sent = new Sent(random, 40, 600);
            double loss = random.nextInt(3) * 0.05;
            Set<Long> lostSeqnos = new HashSet<>();
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < sent.datagrams.size(); i++) {
                order.add(i);
                if (random.nextDouble() < loss) {
                    lostSeqnos.add((long) i);
                }
            }
            // Reordered within a window, as recovery reorders them.
            for (int i = 0; i < order.size(); i++) {
                int j = Math.min(order.size() - 1, i + random.nextInt(20));
                Collections.swap(order, i, j);
            }
            MessageStreams streams = streams();
            for (int seqno : order) {
                if (lostSeqnos.contains((long) seqno)) {
                    streams.lost(ORIGIN, GROUP, seqno);
                } else {
                    byte[] d = sent.datagrams.get(seqno);
                    streams.delivered(ORIGIN, GROUP, seqno, d, 0, d.length);
                }
            }
            check(sent, lostSeqnos, "seed " + seed);
        }
    }

    private void check(Sent sent, Set<Long> lostSeqnos, String what) {
        Set<Long> lostIds = new HashSet<>();
        for (String e : unordered) {
            if (e.startsWith("L:")) {
                long id = Long.parseLong(e.substring(2));
                assertTrue(lostIds.add(id), what + ": LOST " + id + " twice");
            }
        }
        List<String> expectedFifo = new ArrayList<>();
        for (long id : sent.order) {
            long[] span = sent.spans.get(id);
            boolean allCame = true;
            for (long s = span[0]; s < span[1]; s++) {
                allCame &= !lostSeqnos.contains(s);
            }
            if (allCame) {
                assertArrayEquals(sent.messages.get(id), delivered.get(id), what + ": message " + id);
                assertFalse(lostIds.contains(id), what + ": " + id + " delivered and lost");
                expectedFifo.add("D:" + id + ":" + Arrays.hashCode(sent.messages.get(id)));
            } else {
                assertFalse(delivered.containsKey(id), what + ": " + id + " delivered with a datagram lost");
                assertTrue(lostIds.contains(id), what + ": " + id + " neither delivered nor reported LOST");
                expectedFifo.add("L:" + id);
            }
        }
        // A LOST naming no message: a given-up datagram right after another given-up one.
        for (long id : lostIds) {
            if (!sent.messages.containsKey(id)) {
                long seqno = MessageId.datagram(id);
                assertTrue(lostSeqnos.contains(seqno) && lostSeqnos.contains(seqno - 1), what + ": stray LOST " + id);
            }
        }
        List<String> fifoMessages = new ArrayList<>(fifo);
        fifoMessages.removeIf(e -> e.startsWith("L:") && !sent.messages.containsKey(Long.parseLong(e.substring(2))));
        assertEquals(expectedFifo, fifoMessages, what + ": FIFO order");
    }

    @Test
    void aFragmentedMessageIsDeliveredWholeOnceItsLastFragmentComesInAnyOrder() {
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        byte[] message = new byte[300];
        new Random(2).nextBytes(message);
        sent.add(message);
        int n = sent.datagrams.size();
        for (int s = n - 1; s >= 0; s--) {
            assertTrue(unordered.isEmpty(), "nothing before the last piece");
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        assertArrayEquals(message, delivered.get(0L));
        assertEquals(1, counters.get(DaemonCounter.MESSAGES_REASSEMBLED));
        assertEquals(0, streams.reassemblyBytes(), "its pieces are let go");
    }

    @Test
    void aSmallMessageBehindAnIncompleteLargeOneIsNotHeldBackForUnorderedSubscribersButIsForFifo() {
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[200]);
        sent.add(new byte[] {1, 2, 3});
        int small = sent.datagrams.size() - 1;
        streams.delivered(ORIGIN, GROUP, 0, sent.datagrams.get(0), 0, sent.datagrams.get(0).length);
        streams.delivered(ORIGIN, GROUP, small, sent.datagrams.get(small), 0, 4);
        assertEquals(1, unordered.size(), "the small message at once");
        assertTrue(fifo.isEmpty(), "FIFO waits for the large one");
        timeNs = 5_000_000;
        for (int s = 1; s < small; s++) {
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        assertEquals(List.of("D:0:" + Arrays.hashCode(new byte[200]),
                "D:" + MessageId.of(small, 0) + ":" + Arrays.hashCode(new byte[] {1, 2, 3})), fifo);
        assertEquals(0, streams.heldBytes());
        assertEquals(2, counters.get(DaemonCounter.FIFO_HELD), "the small message, and the large one once whole");
        assertEquals(5_000, counters.get(DaemonCounter.FIFO_HELD_US), "the small one waited 5 ms");
        assertEquals(5_000, counters.get(DaemonCounter.FIFO_HELD_PEAK_US));
    }

    @Test
    void aMessageWhoseFirstFragmentsAreLostIsNamedByOneLostOnceALaterFragmentShowsItsExtent() {
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[250]); // 5 fragments, seqnos 0..4
        sent.add(new byte[] {1});
        for (int s = 2; s < sent.datagrams.size(); s++) {
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        streams.lost(ORIGIN, GROUP, 1);
        streams.lost(ORIGIN, GROUP, 0);
        String small = "D:" + MessageId.of(5, 0) + ":" + Arrays.hashCode(new byte[] {1});
        assertEquals(List.of(small, "L:0"), unordered, "seqno 1 is inside message 0, as fragment 2 shows: one LOST");
        assertEquals(List.of("L:0", small), fifo);
        assertEquals(1, counters.get(DaemonCounter.MESSAGES_LOST));
    }

    @Test
    void piecesOfAMessageWhoseFirstFragmentWasGivenUpBeforeTheyCameAreDroppedNotKept() {
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[250]); // 5 fragments, seqnos 0..4
        sent.add(new byte[] {1});
        streams.lost(ORIGIN, GROUP, 0);
        for (int s = 1; s < sent.datagrams.size(); s++) {
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        String small = "D:" + MessageId.of(5, 0) + ":" + Arrays.hashCode(new byte[] {1});
        assertEquals(List.of("L:0", small), unordered);
        assertEquals(List.of("L:0", small), fifo);
        assertEquals(0, streams.reassemblyBytes(), "no piece kept, none counted");
        assertEquals(streams.countPieceBytes(), streams.reassemblyBytes());
        assertEquals(4, counters.get(DaemonCounter.FRAGMENTS_DROPPED), "the message is lost: its pieces are useless");
        assertFalse(streams.sweep(), "nothing to wait for");
    }

    @Test
    void aStreamWhoseLastDatagramWasGivenUpWaitsForNothing() {
        MessageStreams streams = streams();
        streams.delivered(ORIGIN, GROUP, 0, new byte[] {0, 7}, 0, 2);
        streams.lost(ORIGIN, GROUP, 1);
        assertEquals(List.of("D:0:" + Arrays.hashCode(new byte[] {7}), "L:" + MessageId.of(1, 0)), fifo);
        assertFalse(streams.sweep(), "the LOST is reported; were the stream closed now, nothing more would be");
    }

    @Test
    void aSenderGoneInTheMiddleOfAMessageHasItReportedLostWhenItsStreamEnds() {
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[500]);
        for (int s = 0; s < 4; s++) {
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        assertTrue(streams.sweep(), "still waiting for the rest");
        assertTrue(unordered.isEmpty());
        engineId = -1; // the engine pruned the departed sender's stream
        assertFalse(streams.sweep());
        assertEquals(List.of("L:0"), unordered);
        assertEquals(List.of("L:0"), fifo);
        assertEquals(0, streams.size());
        assertEquals(0, streams.reassemblyBytes());
    }

    @Test
    void aRestartedSenderClosesItsOldStreamFirst() {
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[500]);
        streams.delivered(ORIGIN, GROUP, 0, sent.datagrams.get(0), 0, sent.datagrams.get(0).length);
        engineId = 2; // a new incarnation, its stream from 0 again
        byte[] hello = {0, 42};
        streams.delivered(ORIGIN, GROUP, 0, hello, 0, 2);
        assertEquals(List.of("L:0", "D:0:" + Arrays.hashCode(new byte[] {42})), unordered);
    }

    @Test
    void piecesOfAMessageBegunBeforeThisNodesStreamAreDroppedSilently() {
        engineStart = 5; // the join point: seqnos 0..4 are not this node's
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[500]); // seqnos 0..9
        sent.add(new byte[] {9});
        for (int s = 5; s < sent.datagrams.size(); s++) {
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        assertEquals(List.of("D:" + MessageId.of(10, 0) + ":" + Arrays.hashCode(new byte[] {9})), unordered);
        assertEquals(List.of("D:" + MessageId.of(10, 0) + ":" + Arrays.hashCode(new byte[] {9})), fifo);
        assertEquals(5, counters.get(DaemonCounter.FRAGMENTS_DROPPED));
    }

    @Test
    void aMessageThatDoesNotFitTheReassemblyBufferIsReportedLostAndNothingElseIsDropped() {
        MessageStreams streams = streams(1 << 20, 400, 400, 1 << 20);
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[600]);
        sent.add(new byte[300]);
        for (int s = 0; s < sent.datagrams.size(); s++) {
            streams.delivered(ORIGIN, GROUP, s, sent.datagrams.get(s), 0, sent.datagrams.get(s).length);
        }
        long second = sent.order.get(1);
        assertEquals(List.of("L:0", "D:" + second + ":" + Arrays.hashCode(new byte[300])), unordered);
        assertEquals(1, counters.get(DaemonCounter.REASSEMBLY_OVERFLOWS));
        assertEquals(0, streams.reassemblyBytes());
    }

    @Test
    void aMessageLargerThanMaxMessageIsReportedLostWithoutReservingItsSize() {
        MessageStreams streams = streams(200, 1 << 20, 1 << 20, 1 << 20);
        byte[] huge = new byte[BundleFormat.FRAGMENT_HEADER + 10];
        BundleFormat.writeFragmentHeader(huge, 0, Integer.MAX_VALUE, 0);
        streams.delivered(ORIGIN, GROUP, 0, huge, 0, huge.length);
        assertEquals(List.of("L:0"), unordered);
        assertEquals(1, counters.get(DaemonCounter.MESSAGES_TOO_LARGE));
    }

    @Test
    void fifoPastItsBufferDeliversOutOfOrderAndCountsIt() {
        MessageStreams streams = streams(1 << 20, 1 << 20, 1 << 20, 2);
        byte[] a = {0, 1, 1, 1};
        streams.delivered(ORIGIN, GROUP, 1, a, 0, a.length);
        assertEquals(1, fifo.size(), "no room to hold it: out of order");
        assertEquals(1, counters.get(DaemonCounter.FIFO_OUT_OF_ORDER));
        streams.delivered(ORIGIN, GROUP, 0, new byte[] {0, 5}, 0, 2);
        assertEquals(2, fifo.size());
    }

    /**
     * The engine gives up a long run of datagrams in order while an early one is still being repaired (a rejoin far
     * behind a busy sender did this on the local cluster): the cursor jumps once, and each later datagram is then
     * walked as it comes, not the whole run again for each (which took the engine's thread for minutes).
     */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aRunOfGivenUpDatagramsFarBeyondAWaitingCursorMakesOneJump() {
        MessageStreams streams = streams();
        long run = 3 * MessageStreams.MAX_LAG;
        for (long seqno = 1; seqno <= run; seqno++) {
            streams.lost(ORIGIN, GROUP, seqno);
        }
        assertEquals(1, counters.get(DaemonCounter.MESSAGE_CURSOR_JUMPS));
        streams.delivered(ORIGIN, GROUP, 0, new byte[] {0, 7}, 0, 2);
        assertTrue(unordered.contains("D:0:" + Arrays.hashCode(new byte[] {7})), "the early one still delivered");
        assertEquals(run, unordered.stream().filter(e -> e.startsWith("L:")).count(), "each given-up one reported");
    }

    @Test
    void aBestEffortStreamNeverJumpsAndKeepsAMessageBeingReassembledAcrossALongRun() {
        resolvesAll = false;
        MessageStreams streams = streams();
        Sent sent = new Sent(new Random(1), 0, 0);
        sent.add(new byte[100]); // 2 fragments, seqnos 0 and 1
        byte[] first = sent.datagrams.get(0);
        byte[] second = sent.datagrams.get(1);
        streams.delivered(ORIGIN, GROUP, 0, first, 0, first.length);
        streams.delivered(ORIGIN, GROUP, MessageStreams.MAX_LAG + 5, new byte[] {0, 9}, 0, 2);
        streams.delivered(ORIGIN, GROUP, 1, second, 0, second.length);
        assertEquals(0, counters.get(DaemonCounter.MESSAGE_CURSOR_JUMPS));
        assertEquals(List.of("D:" + MessageId.of(MessageStreams.MAX_LAG + 5, 0) + ":" + Arrays.hashCode(new byte[] {9}),
                "D:0:" + Arrays.hashCode(sent.messages.get(0L))), unordered);
    }

    @Test
    void fuzzedFragmentsCostCountersNeverAnExceptionOrUnboundedMemory() {
        Random random = new Random(11);
        strict = false;
        MessageStreams streams = streams(4096, 8192, 4096, 4096);
        for (int i = 0; i < 200_000; i++) {
            byte[] d = new byte[random.nextInt(MAX_PAYLOAD + 1)];
            random.nextBytes(d);
            if (d.length > 0 && random.nextBoolean()) {
                d[0] = BundleFormat.FRAGMENT;
                if (d.length >= BundleFormat.FRAGMENT_HEADER && random.nextBoolean()) {
                    BundleFormat.writeFragmentHeader(d, 0, 2 + random.nextInt(100), random.nextInt(100));
                }
            }
            long seqno = random.nextInt(5_000);
            if (random.nextInt(10) == 0) {
                streams.lost(ORIGIN + random.nextInt(3), GROUP, seqno);
            } else {
                streams.delivered(ORIGIN + random.nextInt(3), GROUP, seqno, d, 0, d.length);
            }
            assertTrue(streams.reassemblyBytes() <= 8192);
            if (i % 1_000 == 0) {
                assertEquals(streams.countPieceBytes(), streams.reassemblyBytes(), "at step " + i);
            }
            assertTrue(streams.heldBytes() <= 4096);
        }
        engineId = 99;
        streams.sweep();
        assertEquals(0, streams.reassemblyBytes());
        assertEquals(0, streams.heldBytes());
    }
}
