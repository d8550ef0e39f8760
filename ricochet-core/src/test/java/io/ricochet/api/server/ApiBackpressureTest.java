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
import io.ricochet.client.RicochetClient;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A subscriber that stops reading costs the daemon at most its write buffer: deliveries beyond the high water mark
 * are dropped, counted and reported in OVERFLOW, while a subscriber that keeps up gets every one.
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

    @Test
    void shouldDropForTheSlowSubscriberOnlyAndReportTheCount() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withWriteBufferWaterMarks(LOW, HIGH));
                RawConnection slow = new RawConnection(fixture.port(), 4096).hello()) {
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

            long[] delivered = readEverything(slow, pushed);
            assertEquals(dropped, delivered[1], "OVERFLOW frames must report every drop");
            assertEquals(pushed, delivered[0] + delivered[1]);
            assertTrue(server.counter(ApiCounter.OVERFLOWS_SENT) > 0);
        }
    }

    /** Pushes batches, each received in full by the good client, until the slow one has dropped enough. */
    private static long pushUntilDropped(ApiFixture fixture, AtomicLong received) {
        long pushed = 0;
        while (fixture.server().counter(ApiCounter.DELIVERIES_DROPPED) < DROPS_WANTED) {
            if (pushed >= MAX_DELIVERIES) {
                fail("no backpressure drop after " + pushed + " deliveries");
            }
            fixture.node().deliverMany(ORIGIN, GROUP, pushed, BATCH, PAYLOAD);
            pushed += BATCH;
            long target = pushed;
            Await.until(() -> "good client has " + received.get() + " of " + target, () -> received.get() == target);
        }
        return pushed;
    }

    /** Reads until every delivery is accounted for: {delivered, reported dropped}. */
    private static long[] readEverything(RawConnection slow, long pushed) throws Exception {
        long delivered = 0;
        long overflowed = 0;
        while (delivered + overflowed < pushed) {
            ApiFrame frame = slow.read();
            if (frame instanceof ApiPush.Deliver) {
                delivered++;
            } else {
                overflowed += assertInstanceOf(ApiPush.Overflow.class, frame).dropped();
            }
        }
        return new long[] {delivered, overflowed};
    }
}
