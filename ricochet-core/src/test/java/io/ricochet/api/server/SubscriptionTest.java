package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.MalformedFrameException;
import java.util.ArrayList;
import java.util.List;
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

        List<ApiFrame> frames = written();
        ApiPush.Deliver deliver = assertInstanceOf(ApiPush.Deliver.class, frames.get(0));
        assertEquals(1, deliver.origin());
        assertEquals(GROUP, deliver.group());
        assertEquals(0, deliver.seqno());
        assertArrayEquals(new byte[] {7}, deliver.payload());
        assertEquals(new ApiPush.Lost(1, GROUP, 1), frames.get(1));
        assertEquals(2, frames.size());
        assertEquals(2, counters.get(ApiCounter.FRAMES_OUT));
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
    void shouldDropWhileUnwritableAndReportTheCountAndTheMessagesWhenWritable() {
        unwritable(true);
        subscription.delivered(1, GROUP, 0, new byte[1]);
        subscription.lost(1, GROUP, 4096);
        subscription.delivered(1, GROUP, 2 * 4096, new byte[1]);
        endOfBatch();
        assertEquals(List.of(), written());
        assertEquals(3, counters.get(ApiCounter.DELIVERIES_DROPPED));

        unwritable(false);
        subscription.writable();

        assertEquals(List.of(new ApiPush.Overflow(3), new ApiPush.Dropped(1, GROUP, 0, 2 * 4096)), written());
        assertEquals(1, counters.get(ApiCounter.OVERFLOWS_SENT));
        assertEquals(1, counters.get(ApiCounter.DROPPED_SENT));
        assertEquals(0, counters.get(ApiCounter.UNNAMED_DROPS));
    }

    @Test
    void shouldReportDropsBeforeTheNextDeliveryEvenWithoutAWritabilityEvent() {
        unwritable(true);
        subscription.delivered(1, GROUP, 0, new byte[1]);
        unwritable(false);

        subscription.delivered(1, GROUP, 1, new byte[1]);
        endOfBatch();

        List<ApiFrame> frames = written();
        assertEquals(new ApiPush.Overflow(1), frames.get(0));
        assertEquals(new ApiPush.Dropped(1, GROUP, 0, 0), frames.get(1));
        assertEquals(1, assertInstanceOf(ApiPush.Deliver.class, frames.get(2)).seqno());
        assertEquals(3, frames.size());
    }

    @Test
    void shouldStartANewRunAfterTheConnectionWasHandedAMessage() {
        unwritable(true);
        subscription.delivered(1, GROUP, 0, new byte[1]);
        unwritable(false);
        subscription.delivered(1, GROUP, 1, new byte[1]);
        unwritable(true);
        subscription.delivered(1, GROUP, 2, new byte[1]);
        endOfBatch();
        unwritable(false);
        subscription.writable();

        List<ApiFrame> frames = written();
        assertEquals(List.of(new ApiPush.Overflow(1), new ApiPush.Dropped(1, GROUP, 0, 0)), frames.subList(0, 2));
        assertEquals(1, assertInstanceOf(ApiPush.Deliver.class, frames.get(2)).seqno());
        assertEquals(List.of(new ApiPush.Overflow(1), new ApiPush.Dropped(1, GROUP, 2, 2)), frames.subList(3, 5));
    }

    @Test
    void shouldCountButNotNameDropsBeyondItsLedger() {
        subscription = new Subscription(channel, counters, 2);
        subscription.add(GROUP);
        unwritable(true);
        for (int origin = 1; origin <= 3; origin++) {
            subscription.delivered(origin, GROUP, 0, new byte[1]);
        }
        unwritable(false);
        subscription.writable();

        List<ApiFrame> frames = written();
        assertEquals(new ApiPush.Overflow(3), frames.get(0));
        assertEquals(java.util.Set.of(new ApiPush.Dropped(1, GROUP, 0, 0), new ApiPush.Dropped(2, GROUP, 0, 0)),
                java.util.Set.copyOf(frames.subList(1, frames.size())));
        assertEquals(1, counters.get(ApiCounter.UNNAMED_DROPS));
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
        assertInstanceOf(ByteBuf.class, channel.outboundMessages().peek(), "the batch is one buffer");
        assertEquals(1, channel.outboundMessages().size(), "the batch is one write");
        List<ApiFrame> frames = written();
        for (int seqno = 0; seqno < 50; seqno++) {
            assertEquals(seqno, assertInstanceOf(ApiPush.Deliver.class, frames.get(seqno)).seqno());
        }
        assertEquals(50, frames.size());
        endOfBatch();
        assertEquals(1, flushCounter.flushes - flushesBefore, "an empty batch writes nothing");
    }

    @Test
    void shouldStartABatchAtTheSizeOfTheLastSoItDoesNotGrowByCopies() {
        for (int seqno = 0; seqno < 100; seqno++) {
            subscription.delivered(1, GROUP, seqno, new byte[1024]);
        }
        endOfBatch();
        ByteBuf first = (ByteBuf) channel.readOutbound();
        int firstBytes = first.readableBytes();
        first.release();

        subscription.delivered(1, GROUP, 100, new byte[1024]);
        endOfBatch();
        ByteBuf second = (ByteBuf) channel.readOutbound();
        try {
            assertTrue(second.capacity() >= firstBytes, "a batch after one of " + firstBytes + " bytes starts at "
                    + second.capacity());
        } finally {
            second.release();
        }
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
        long written = written().size();
        assertEquals(offered - dropped, written);
        assertTrue(written * 1024 <= room + 1024, written + " KiB written into " + room + " bytes of room");
    }

    /** The engine's batch ends: the subscription hands its frames to the connection's event loop, which runs them. */
    private void endOfBatch() {
        subscription.endOfBatch();
        channel.runPendingTasks();
    }

    /** Every frame written to the channel so far, in order, decoded from the bytes of each batch. */
    private List<ApiFrame> written() {
        List<ApiFrame> frames = new ArrayList<>();
        for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            if (out instanceof ApiFrame frame) {
                frames.add(frame);
                continue;
            }
            ByteBuf bytes = (ByteBuf) out;
            try {
                while (bytes.isReadable()) {
                    int length = bytes.readInt();
                    frames.add(ApiFrameCodec.decode(bytes.readSlice(length)));
                }
            } catch (MalformedFrameException e) {
                throw new AssertionError("the subscription wrote a malformed frame", e);
            } finally {
                bytes.release();
            }
        }
        return frames;
    }

    private void unwritable(boolean full) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(BACKPRESSURE, !full);
    }
}
