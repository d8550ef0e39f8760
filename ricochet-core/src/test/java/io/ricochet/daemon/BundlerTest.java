package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.MessageId;
import io.ricochet.engine.Counters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the bundler sends a datagram (end of the batch, linger, no room, another group) and which ids its messages
 * get. The engine is a fake that records datagrams and counts seqnos per group; the end of the batch is run by
 * hand, the linger timer on an {@link EmbeddedChannel}'s loop.
 */
class BundlerTest {
    private static final long US = 1_000L;

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final Counters counters = new Counters(DaemonCounter.ALL);
    private final List<Runnable> endOfBatch = new ArrayList<>();
    private final Map<Integer, Long> sentTo = new HashMap<>();
    /** Each datagram as "group/seqno" and its messages. */
    private final List<String> datagrams = new ArrayList<>();
    private final List<List<byte[]>> contents = new ArrayList<>();
    private int sentOnItsOwn;

    private final Bundler.Engine engine = new Bundler.Engine() {
        @Override
        public long nextSeqno(int group) {
            return sentTo.getOrDefault(group, 0L);
        }

        @Override
        public long sendDatagram(int group, byte[] payload, int offset, int length) {
            long seqno = nextSeqno(group);
            sentTo.put(group, seqno + 1);
            datagrams.add(group + "/" + seqno);
            contents.add(BundleFormatTest.messages(Arrays.copyOfRange(payload, offset, offset + length)));
            return seqno;
        }

        @Override
        public void sentOnItsOwn() {
            sentOnItsOwn++;
        }
    };

    private Bundler bundler(int bundleBytes, long lingerNs) {
        channel.freezeTime();
        return new Bundler(bundleBytes, lingerNs, engine, endOfBatch::add, channel.eventLoop(), counters);
    }

    private void endBatch() {
        List<Runnable> tasks = List.copyOf(endOfBatch);
        endOfBatch.clear();
        tasks.forEach(Runnable::run);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldSendTheMessagesOfABatchAsOneDatagramAtItsEnd() {
        Bundler bundler = bundler(1024, 0);
        assertEquals(MessageId.of(0, 0), bundler.add(1, new byte[] {10}));
        assertEquals(MessageId.of(0, 1), bundler.add(1, new byte[] {11, 12}));
        assertEquals(MessageId.of(0, 2), bundler.add(1, new byte[0]));
        assertTrue(bundler.joins(1, 100));
        assertEquals(List.of(), datagrams, "nothing before the end of the batch");

        endBatch();

        assertEquals(List.of("1/0"), datagrams);
        assertEquals(3, contents.get(0).size());
        assertArrayEquals(new byte[] {11, 12}, contents.get(0).get(1));
        assertEquals(1, sentOnItsOwn, "the driver is told to flush its sockets");
        assertFalse(bundler.isOpen());
        assertEquals(MessageId.of(1, 0), bundler.add(1, new byte[] {13}), "the next batch, the next datagram");
        endBatch();
        assertEquals(List.of("1/0", "1/1"), datagrams);
        assertArrayEquals(new byte[] {13}, contents.get(1).get(0), "a lone message goes as SINGLE");
        assertEquals(1, counters.get(DaemonCounter.BUNDLES_SENT));
        assertEquals(3, counters.get(DaemonCounter.BUNDLED_MESSAGES));
        assertEquals(3, counters.get(DaemonCounter.BUNDLE_PEAK));
    }

    @Test
    void shouldSendADatagramOnceTheNextMessageWouldNotFit() {
        Bundler bundler = bundler(20, 0);
        // 1 kind byte, then a length of 2 and the bytes per message: 1 + (2 + 8) + (2 + 5) = 18 of 20.
        assertEquals(0, bundler.add(1, new byte[8]));
        assertEquals(1, bundler.add(1, new byte[5]));
        assertFalse(bundler.joins(1, 1), "18 + 2 + 1 > 20");
        assertTrue(bundler.joins(1, 0));
        assertEquals(MessageId.of(1, 0), bundler.add(1, new byte[1]), "a new datagram");
        assertEquals(List.of("1/0"), datagrams, "the full one went first");
        assertEquals(2, contents.get(0).size());
        endBatch();
        assertEquals(List.of("1/0", "1/1"), datagrams);
        endBatch();
        assertEquals(2, datagrams.size(), "a stale end-of-batch task sends nothing");
    }

    @Test
    void shouldSendADatagramWithNoRoomLeftAtOnce() {
        Bundler bundler = bundler(20, 0);
        assertEquals(0, bundler.add(1, new byte[15]));
        assertEquals(List.of(), datagrams, "1 + 2 + 15 + 2 = 20: an empty message still fits");
        assertEquals(MessageId.of(1, 0), bundler.add(1, new byte[16]));
        assertEquals(List.of("1/0", "1/1"), datagrams, "1 + 2 + 16 + 2 > 20: no other message could join");
        assertFalse(bundler.isOpen());
    }

    @Test
    void shouldHoldAtMostMessagesPerDatagramAcceptedMessagesOfOneSizeUnsent() {
        for (int size : new int[] {1, 5, 256, 1000}) {
            datagrams.clear();
            Bundler bundler = bundler(1024, 0);
            int most = BundleFormat.messagesPerDatagram(1024, size);
            for (int i = 0; i < most; i++) {
                bundler.add(1, new byte[size]);
            }
            assertTrue(datagrams.isEmpty() || !bundler.isOpen(), size + " bytes: " + most + " messages are held");
            bundler.add(1, new byte[size]);
            assertEquals(1, datagrams.size(), size + " bytes: one more than " + most + " sends the first datagram");
            assertEquals(most, contents.get(contents.size() - 1).size(), size + " bytes, messages in it");
            bundler.send();
        }
        assertEquals(1, BundleFormat.messagesPerDatagram(0, 256), "no bundling: each message is a datagram");
    }

    @Test
    void shouldSendEveryMessageAtOnceWithoutBundling() {
        Bundler bundler = bundler(0, 0);
        assertEquals(MessageId.of(0, 0), bundler.add(1, new byte[] {1}));
        assertEquals(MessageId.of(1, 0), bundler.add(1, new byte[] {2}));
        assertEquals(List.of("1/0", "1/1"), datagrams);
        assertEquals(List.of(), endOfBatch);
        assertEquals(0, counters.get(DaemonCounter.BUNDLES_SENT));
    }

    @Test
    void shouldStartANewDatagramForAnotherGroupAfterSendingTheOpenOne() {
        Bundler bundler = bundler(1024, 0);
        sentTo.put(2, 40L);
        bundler.add(1, new byte[] {1});
        assertFalse(bundler.joins(2, 1));
        assertEquals(MessageId.of(40, 0), bundler.add(2, new byte[] {2}), "group 2's next seqno");
        assertEquals(MessageId.of(40, 1), bundler.add(2, new byte[] {3}));
        assertEquals(List.of("1/0"), datagrams);
        endBatch();
        assertEquals(List.of("1/0", "2/40"), datagrams);
    }

    @Test
    void shouldWaitForTheLingerNotTheEndOfTheBatch() {
        Bundler bundler = bundler(1024, 500 * US);
        bundler.add(1, new byte[] {1});
        endBatch();
        assertEquals(List.of(), datagrams, "lingering past the batch");
        channel.advanceTimeBy(499 * US, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
        bundler.add(1, new byte[] {2});
        assertEquals(List.of(), datagrams);
        channel.advanceTimeBy(US, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
        assertEquals(List.of("1/0"), datagrams, "500 us after the first message");
        assertEquals(2, contents.get(0).size());
        assertEquals(1, sentOnItsOwn);
    }

    @Test
    void shouldCancelTheLingerOfADatagramSentEarly() {
        Bundler bundler = bundler(1024, 500 * US);
        bundler.add(1, new byte[] {1});
        bundler.send();
        assertEquals(List.of("1/0"), datagrams, "sent at once (a membership change is coming)");
        assertEquals(0, sentOnItsOwn);
        bundler.add(1, new byte[] {2});
        channel.advanceTimeBy(500 * US, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
        assertEquals(List.of("1/0", "1/1"), datagrams, "the second one after its own linger, not twice");
        assertEquals(1, sentOnItsOwn);
    }

    @Test
    void shouldRefuseToSendADatagramUnderAnotherSeqnoThanItsIds() {
        Bundler bundler = bundler(1024, 0);
        bundler.add(1, new byte[] {1});
        sentTo.put(1, 5L);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, bundler::send,
                "something else sent to the group meanwhile: a bug, never silent");
    }
}
