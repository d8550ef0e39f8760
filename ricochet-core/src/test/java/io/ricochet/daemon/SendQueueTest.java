package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.ApiException;
import io.ricochet.api.DeliveryListener;
import io.ricochet.engine.Counters;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The daemon's backpressure on its applications: sends go to the engine only when it is ready, wait in order up to
 * the bound, and beyond it (or for TRY_SEND) are refused BUSY. The retry timer runs on an {@link EmbeddedChannel}'s
 * loop with a controlled clock.
 */
class SendQueueTest {
    private static final long MS = 1_000_000L;

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final Counters counters = new Counters(DaemonCounter.ALL);
    private final List<String> taken = new ArrayList<>();
    private long timeNs = 1_000 * MS;
    /** When the fake engine can take the next send. */
    private long readyNs;
    /** The group whose datagram is being filled (its sends join it, whatever their size), or -1. */
    private int openGroup = -1;

    private final SendQueue.Engine engine = new SendQueue.Engine() {
        @Override
        public boolean joins(int group, int size) {
            return group == openGroup;
        }

        @Override
        public long readyAtNs(int group, long nowNs) {
            return Math.max(nowNs, readyNs);
        }

        @Override
        public long send(int group, byte[] payload, DeliveryListener from) {
            taken.add(group + ":" + payload.length);
            return taken.size() - 1;
        }

        @Override
        public int maxSingle() {
            return MAX_SINGLE;
        }

        @Override
        public long sendFragment(int group, byte[] message, int index, int count, DeliveryListener from) {
            taken.add(group + ":" + message.length + "#" + index + "/" + count);
            if (afterFragment != null) {
                afterFragment.run();
            }
            return (taken.size() - 1 - index) * 4096L;
        }
    };
    /** What the fake engine does after each fragment it takes (null: nothing). */
    private Runnable afterFragment;

    /** The largest message of one datagram in these tests: fragments carry 1 001 - 9 = 992 bytes each. */
    private static final int MAX_SINGLE = 1_000;

    private SendQueue queue(int capacity, int perSecond) {
        return new SendQueue(engine, capacity, 1 << 20, perSecond, channel.eventLoop(), () -> timeNs, counters);
    }

    private CompletableFuture<Long> offer(SendQueue queue, int size, boolean wait) {
        return offer(queue, 1, size, wait);
    }

    private CompletableFuture<Long> offer(SendQueue queue, int group, int size, boolean wait) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        queue.offer(group, new byte[size], null, wait, done);
        return done;
    }

    private void advance(long ns) {
        timeNs += ns;
        channel.advanceTimeBy(ns, TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
    }

    private static ApiException.Code failure(CompletableFuture<Long> done) {
        try {
            done.join();
            throw new AssertionError("completed");
        } catch (CompletionException e) {
            return ((ApiException) e.getCause()).code();
        }
    }

    @Test
    void shouldTakeASendAtOnceWhenTheEngineIsReady() {
        SendQueue queue = queue(4, 0);
        assertEquals(0L, offer(queue, 10, true).join());
        assertEquals(1L, offer(queue, 11, false).join(), "TRY_SEND too");
        assertEquals(List.of("1:10", "1:11"), taken);
        assertEquals(0, counters.get(DaemonCounter.SENDS_QUEUED));
    }

    @Test
    void shouldHoldSendsUntilTheEngineIsReadyThenTakeThemInOrder() {
        SendQueue queue = queue(2, 0);
        readyNs = timeNs + 50 * MS;
        CompletableFuture<Long> first = offer(queue, 1, true);
        CompletableFuture<Long> second = offer(queue, 2, true);
        assertEquals(ApiException.Code.BUSY, failure(offer(queue, 3, true)), "the queue is full");
        assertEquals(ApiException.Code.BUSY, failure(offer(queue, 4, false)), "TRY_SEND never waits");
        assertFalse(first.isDone());
        assertEquals(List.of(), taken);

        advance(49 * MS);
        assertFalse(first.isDone(), "not before the engine is ready");
        advance(MS);
        assertEquals(0L, first.join());
        assertEquals(1L, second.join());
        assertEquals(List.of("1:1", "1:2"), taken);
        assertEquals(2, counters.get(DaemonCounter.SENDS_QUEUED));
        assertEquals(2, counters.get(DaemonCounter.SENDS_BUSY));
        assertEquals(2, counters.get(DaemonCounter.SEND_QUEUE_PEAK));
    }

    @Test
    void aRecheckTakesWaitingSendsAsSoonAsTheEngineIsReadyBeforeTheRetryTime() {
        SendQueue queue = queue(4, 0);
        readyNs = timeNs + 3_000 * MS;
        CompletableFuture<Long> waiting = offer(queue, 1, true);
        queue.recheck();
        assertFalse(waiting.isDone(), "still not ready");

        readyNs = timeNs; // a STABLE report freed the retransmit buffer
        queue.recheck();
        assertEquals(0L, waiting.join(), "taken now, not 3 s later");
        queue.recheck(); // nothing waits: nothing happens
        assertEquals(List.of("1:1"), taken);
    }

    @Test
    void shouldPaceSendsAtTheRateLimit() {
        SendQueue queue = queue(1_000, 100);
        List<CompletableFuture<Long>> sends = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sends.add(offer(queue, i, true));
        }
        assertEquals(1, taken.size(), "a burst of 1 at 100/s");
        for (int ms = 10; ms <= 490; ms += 10) {
            advance(10 * MS);
            assertEquals(1 + ms / 10, taken.size(), "one every 10 ms, at " + ms + " ms");
        }
        assertTrue(sends.stream().allMatch(CompletableFuture::isDone));
    }

    @Test
    void shouldTakeASendThatJoinsTheDatagramBeingFilledWithoutAskingTheEngineOrTheRateLimit() {
        SendQueue queue = queue(4, 100);
        offer(queue, 1, 1, true).join();
        readyNs = timeNs + 50 * MS;
        openGroup = 1;

        assertEquals(1L, offer(queue, 1, 2, false).join(), "TRY_SEND into the open datagram: no new datagram");
        assertEquals(2L, offer(queue, 1, 3, true).join());
        assertEquals(ApiException.Code.BUSY, failure(offer(queue, 2, 4, false)), "another group needs a datagram");
        CompletableFuture<Long> waiting = offer(queue, 2, 5, true);
        CompletableFuture<Long> behind = offer(queue, 1, 6, true);
        assertFalse(behind.isDone(), "in order: behind a send that waits for a new datagram");

        advance(50 * MS);
        assertEquals(3L, waiting.join());
        assertEquals(4L, behind.join());
        assertEquals(List.of("1:1", "1:2", "1:3", "2:5", "1:6"), taken);
    }

    @Test
    void shouldFailWaitingSendsWhenTheDaemonStops() {
        SendQueue queue = queue(4, 0);
        readyNs = Long.MAX_VALUE / 2;
        CompletableFuture<Long> waiting = offer(queue, 1, true);
        queue.failAll(new ApiException(ApiException.Code.UNAVAILABLE, "stopping"));
        assertEquals(ApiException.Code.UNAVAILABLE, failure(waiting));
        assertEquals(0, queue.size());
    }

    @Test
    void shouldPassTheEnginesRefusalOnToTheSender() {
        SendQueue queue = new SendQueue(new ReadyEngine() {
            @Override
            public long send(int group, byte[] payload, DeliveryListener from) {
                throw new ApiException(ApiException.Code.NOT_A_MEMBER, "left meanwhile");
            }

            @Override
            public long sendFragment(int group, byte[] message, int index, int count, DeliveryListener from) {
                throw new ApiException(ApiException.Code.NOT_A_MEMBER, "left meanwhile");
            }
        }, 4, 1 << 20, 0, channel.eventLoop(), () -> timeNs, counters);
        assertEquals(ApiException.Code.NOT_A_MEMBER, failure(offer(queue, 1, true)));
    }

    @Test
    void shouldSendAMessageTooLargeForADatagramAsFragmentsInOrderAndCompleteItWithTheFirstFragmentsId() {
        SendQueue queue = queue(4, 0);
        offer(queue, 10, true).join();
        CompletableFuture<Long> large = offer(queue, 2_500, true);
        assertEquals(4096L, large.join(), "the id of its first fragment, seqno 1");
        assertEquals(List.of("1:10", "1:2500#0/3", "1:2500#1/3", "1:2500#2/3"), taken);
        assertEquals(1, counters.get(DaemonCounter.MESSAGES_FRAGMENTED));
        assertEquals(3, counters.get(DaemonCounter.FRAGMENTS_SENT));
    }

    @Test
    void shouldTakeEachFragmentOnlyWhenTheEngineIsReadyAndKeepLaterSendsBehindTheMessage() {
        SendQueue queue = queue(4, 0);
        // The engine is ready for the first fragment only, then 10 ms later for each next one.
        afterFragment = () -> readyNs = timeNs + 10 * MS;
        CompletableFuture<Long> large = offer(queue, 2_500, false);
        CompletableFuture<Long> small = offer(queue, 2, 7, true);
        assertEquals(List.of("1:2500#0/3"), taken, "started at once (TRY_SEND too), the rest waits");
        assertFalse(large.isDone(), "taken when its last fragment is");
        advance(10 * MS);
        assertEquals(List.of("1:2500#0/3", "1:2500#1/3"), taken);
        afterFragment = null;
        advance(10 * MS);
        assertEquals(0L, large.join());
        assertEquals(List.of("1:2500#0/3", "1:2500#1/3", "1:2500#2/3", "2:7"), taken);
        assertEquals(3L, small.join(), "after the whole large message");
    }

    @Test
    void shouldCountBytesAgainstTheQueueSoALargeMessageCannotBypassIt() {
        SendQueue queue = new SendQueue(engine, 100, 3_000, 0, channel.eventLoop(), () -> timeNs, counters);
        readyNs = timeNs + 50 * MS;
        CompletableFuture<Long> first = offer(queue, 2_500, true);
        assertEquals(ApiException.Code.BUSY, failure(offer(queue, 600, true)), "2 500 + 600 bytes > 3 000");
        CompletableFuture<Long> fits = offer(queue, 500, true);
        advance(50 * MS);
        assertEquals(0L, first.join());
        assertEquals(3L, fits.join());
    }

    @Test
    void shouldFailAFragmentedSendTheEngineRefusesAndGoOnWithTheNext() {
        SendQueue queue = new SendQueue(new ReadyEngine() {
            @Override
            public long send(int group, byte[] payload, DeliveryListener from) {
                return 7;
            }

            @Override
            public long sendFragment(int group, byte[] message, int index, int count, DeliveryListener from) {
                if (index == 1) {
                    throw new ApiException(ApiException.Code.NOT_A_MEMBER, "left meanwhile");
                }
                return 0;
            }
        }, 4, 1 << 20, 0, channel.eventLoop(), () -> timeNs, counters);
        assertEquals(ApiException.Code.NOT_A_MEMBER, failure(offer(queue, 5_000, true)));
        assertEquals(7L, offer(queue, 5, true).join());
        assertEquals(0, queue.size());
    }

    /** An engine always ready for a new datagram, joining none, with the tests' largest single message. */
    private abstract static class ReadyEngine implements SendQueue.Engine {
        @Override
        public boolean joins(int group, int size) {
            return false;
        }

        @Override
        public long readyAtNs(int group, long nowNs) {
            return nowNs;
        }

        @Override
        public int maxSingle() {
            return MAX_SINGLE;
        }
    }
}
