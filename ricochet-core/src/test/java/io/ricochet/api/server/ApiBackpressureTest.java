package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.util.BitSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A subscriber that stops reading costs the daemon at most its write buffer: deliveries beyond the high water mark
 * are dropped, counted and reported in OVERFLOW and named in DROPPED, so the slow subscriber is told of every one
 * exactly once, while a subscriber that keeps up gets every one.
 */
class ApiBackpressureTest {
    private static final int GROUP = 9;
    private static final int ORIGIN = 3;
    private static final int LOW = 32 * 1024;
    private static final int HIGH = 128 * 1024;
    /** Deliveries pushed before waiting for the good client to have them all: far below the high water mark. */
    private static final int BATCH = 32;
    private static final byte[] PAYLOAD = new byte[1000];
    /** Drops to see before stopping, so the slow connection has been full for a while. */
    private static final long DROPS_WANTED = 500;
    /** Enough to fill any loopback socket buffers many times over; no drop by then is a failure. */
    private static final long MAX_DELIVERIES = 200_000;

    /** Protocol version 1 has no DROPPED: a client of it learns how many it missed, not which. */
    @ParameterizedTest(name = "protocol version {0}")
    @ValueSource(ints = {1, 2})
    void shouldDropForTheSlowSubscriberOnlyAndReportTheCountAndWhichMessages(int version) throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withWriteBufferWaterMarks(LOW, HIGH));
                RawConnection slow = new RawConnection(fixture.port(), 4096).hello(version)) {
            assertInstanceOf(ApiReply.Ok.class, slow.call(new ApiRequest.Join(2, GROUP)));
            RicochetClient good = fixture.client();
            good.join(GROUP);
            AtomicLong received = new AtomicLong();
            AtomicLong outOfOrder = new AtomicLong();
            good.subscribe(delivery -> {
                if (delivery.seqno() != received.getAndIncrement()) {
                    outOfOrder.incrementAndGet();
                }
            });
            ApiServer server = fixture.server();

            long pushed = pushUntilDropped(fixture, received);

            long dropped = server.counter(ApiCounter.DELIVERIES_DROPPED);
            assertTrue(dropped >= DROPS_WANTED, "dropped " + dropped);
            assertEquals(pushed, received.get(), "the good client must get every delivery");
            assertEquals(0, outOfOrder.get());
            assertEquals(0, good.overflowedDeliveries());
            long peak = server.counter(ApiCounter.PEAK_OUTBOUND_BYTES);
            assertTrue(peak <= HIGH + ApiProtocol.DEFAULT_MAX_FRAME_LENGTH, "write buffer peaked at " + peak);

            boolean named = version >= 2;
            Slow read = readEverything(slow, pushed, named);
            assertEquals(dropped, read.overflowed, "OVERFLOW frames must report every drop");
            assertEquals(pushed, read.delivered.cardinality() + read.overflowed);
            assertEquals(named ? dropped : 0, read.named.cardinality(), "DROPPED frames must name every drop");
            assertEquals(0, read.twice, "no message both delivered and named dropped, nor named twice");
            assertTrue(server.counter(ApiCounter.OVERFLOWS_SENT) > 0);
            assertEquals(0, server.counter(ApiCounter.UNNAMED_DROPS));
        }
    }

    @Test
    void shouldTellAJavaClientThatStalledWhichMessagesItMissed() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withWriteBufferWaterMarks(LOW, HIGH))) {
            RicochetClient stalled = fixture.client();
            stalled.join(GROUP);
            CountDownLatch resume = new CountDownLatch(1);
            Slow read = new Slow();
            stalled.subscribe(d -> {
                awaitQuietly(resume);
                synchronized (read) {
                    for (long id = d.seqno(); id <= d.lastId(); id++) {
                        read.mark(d.kind() == Delivery.Kind.DELIVERED ? read.delivered : read.named, id);
                    }
                }
            });
            long pushed = pushUntilDropped(fixture, null);
            resume.countDown();
            Await.until(() -> "the client accounted for every delivery", () -> {
                synchronized (read) {
                    return read.delivered.cardinality() + read.named.cardinality() == pushed;
                }
            });

            long dropped = fixture.server().counter(ApiCounter.DELIVERIES_DROPPED);
            synchronized (read) {
                assertEquals(dropped, read.named.cardinality(), "every message dropped is named, once");
                assertEquals(0, read.twice);
            }
            Await.until(() -> "OVERFLOW total " + stalled.overflowedDeliveries() + " of " + dropped,
                    () -> stalled.overflowedDeliveries() == dropped);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Pushes batches until the slow connection has dropped enough; with a good client ({@code received} not null),
     * each batch is first received by it in full.
     */
    private static long pushUntilDropped(ApiFixture fixture, AtomicLong received) {
        long pushed = 0;
        while (fixture.server().counter(ApiCounter.DELIVERIES_DROPPED) < DROPS_WANTED) {
            if (pushed >= MAX_DELIVERIES) {
                fail("no backpressure drop after " + pushed + " deliveries");
            }
            fixture.node().deliverMany(ORIGIN, GROUP, pushed, BATCH, PAYLOAD);
            pushed += BATCH;
            long target = pushed;
            if (received != null) {
                Await.until(() -> "good client has " + received.get() + " of " + target,
                        () -> received.get() == target);
            }
        }
        return pushed;
    }

    /** What the slow connection read: ids delivered, ids named in DROPPED, the OVERFLOW total, ids seen twice. */
    private static final class Slow {
        final BitSet delivered = new BitSet();
        final BitSet named = new BitSet();
        long overflowed;
        long twice;

        void mark(BitSet set, long id) {
            if (delivered.get((int) id) || named.get((int) id)) {
                twice++;
            }
            set.set((int) id);
        }
    }

    /** Reads until every delivery is accounted for: delivered or counted, and if {@code named}, named dropped. */
    private static Slow readEverything(RawConnection slow, long pushed, boolean named) throws Exception {
        Slow read = new Slow();
        while (named && read.delivered.cardinality() + read.named.cardinality() < pushed
                || read.delivered.cardinality() + read.overflowed < pushed) {
            ApiFrame frame = slow.read();
            if (frame instanceof ApiPush.Deliver deliver) {
                read.mark(read.delivered, deliver.seqno());
            } else if (frame instanceof ApiPush.Dropped run) {
                for (long id = run.firstId(); id <= run.lastId(); id++) {
                    read.mark(read.named, id);
                }
            } else {
                read.overflowed += assertInstanceOf(ApiPush.Overflow.class, frame).dropped();
            }
        }
        return read;
    }
}
