package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.protocol.ApiPush;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SubscriptionTest {
    private static final int GROUP = 4;
    private static final int BACKPRESSURE = 1;

    /** Counts the flushes that reach the channel from the pipeline's tail. */
    private static final class FlushCounter extends io.netty.channel.ChannelOutboundHandlerAdapter {
        int flushes;

        @Override
        public void flush(io.netty.channel.ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }

    private final FlushCounter flushCounter = new FlushCounter();
    private EmbeddedChannel channel;
    private ApiCounters counters;
    private Subscription subscription;

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel(flushCounter);
        counters = new ApiCounters();
        subscription = new Subscription(channel, counters);
        subscription.add(GROUP);
    }

    @Test
    void shouldPushDeliveriesAndLossesOfJoinedGroups() {
        subscription.delivered(1, GROUP, 0, new byte[] {7});
        subscription.lost(1, GROUP, 1);
        endOfBatch();

        ApiPush.Deliver deliver = assertInstanceOf(ApiPush.Deliver.class, channel.readOutbound());
        assertEquals(7, deliver.payload()[0]);
        assertEquals(new ApiPush.Lost(1, GROUP, 1), channel.readOutbound());
        assertFalse(channel.finish());
    }

    @Test
    void shouldIgnoreGroupsItLeft() {
        subscription.remove(GROUP);

        subscription.delivered(1, GROUP, 0, new byte[1]);
        subscription.lost(1, GROUP + 1, 0);
        endOfBatch();

        assertNull(channel.readOutbound());
    }

    @Test
    void shouldDropWhileUnwritableAndReportTheCountWhenWritable() {
        unwritable(true);
        subscription.delivered(1, GROUP, 0, new byte[1]);
        subscription.lost(1, GROUP, 1);
        subscription.delivered(1, GROUP, 2, new byte[1]);
        endOfBatch();
        assertNull(channel.readOutbound());
        assertEquals(3, counters.get(ApiCounter.DELIVERIES_DROPPED));

        unwritable(false);
        subscription.writable();

        assertEquals(new ApiPush.Overflow(3), channel.readOutbound());
        assertNull(channel.readOutbound());
        assertEquals(1, counters.get(ApiCounter.OVERFLOWS_SENT));
    }

    @Test
    void shouldReportDropsBeforeTheNextDeliveryEvenWithoutAWritabilityEvent() {
        unwritable(true);
        subscription.delivered(1, GROUP, 0, new byte[1]);
        unwritable(false);

        subscription.delivered(1, GROUP, 1, new byte[1]);
        endOfBatch();

        assertEquals(new ApiPush.Overflow(1), channel.readOutbound());
        assertEquals(1, assertInstanceOf(ApiPush.Deliver.class, channel.readOutbound()).seqno());
    }

    @Test
    void shouldSendNoOverflowWhenNothingWasDropped() {
        subscription.writable();

        assertNull(channel.readOutbound());
        assertEquals(0, counters.get(ApiCounter.OVERFLOWS_SENT));
    }

    @Test
    void shouldWriteABatchOfDeliveriesWithOneFlushAtItsEnd() {
        for (int seqno = 0; seqno < 50; seqno++) {
            subscription.delivered(1, GROUP, seqno, new byte[] {(byte) seqno});
        }
        channel.runPendingTasks();
        assertNull(channel.readOutbound(), "nothing goes out before the engine's batch ends");

        int flushesBefore = flushCounter.flushes;
        endOfBatch();

        assertEquals(1, flushCounter.flushes - flushesBefore, "one flush for the whole batch");
        for (int seqno = 0; seqno < 50; seqno++) {
            assertEquals(seqno, assertInstanceOf(ApiPush.Deliver.class, channel.readOutbound()).seqno());
        }
        assertNull(channel.readOutbound());
        endOfBatch();
        assertEquals(1, flushCounter.flushes - flushesBefore, "an empty batch writes nothing");
    }

    @Test
    void shouldCountABatchsOwnBytesAgainstTheWriteBuffersRoom() {
        long room = channel.bytesBeforeUnwritable();
        int offered = (int) (2 * room / 1024);
        for (int seqno = 0; seqno < offered; seqno++) {
            subscription.delivered(1, GROUP, seqno, new byte[1024]);
        }
        long dropped = counters.get(ApiCounter.DELIVERIES_DROPPED);
        assertTrue(dropped > 0 && dropped < offered, "a batch bigger than the room is cut where the room ends: "
                + dropped + " of " + offered + " dropped");
        endOfBatch();
        long written = 0;
        while (channel.readOutbound() != null) {
            written++;
        }
        assertEquals(offered - dropped, written);
        assertTrue(written * 1024 <= room + 1024, written + " KiB written into " + room + " bytes of room");
    }

    /** The engine's batch ends: the subscription hands its frames to the connection's event loop, which runs them. */
    private void endOfBatch() {
        subscription.endOfBatch();
        channel.runPendingTasks();
    }

    private void unwritable(boolean full) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(BACKPRESSURE, !full);
    }
}
