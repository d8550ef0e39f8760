package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.protocol.ApiPush;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SubscriptionTest {
    private static final int GROUP = 4;
    private static final int BACKPRESSURE = 1;

    private EmbeddedChannel channel;
    private ApiCounters counters;
    private Subscription subscription;

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel();
        counters = new ApiCounters();
        subscription = new Subscription(channel, counters);
        subscription.add(GROUP);
    }

    @Test
    void shouldPushDeliveriesAndLossesOfJoinedGroups() {
        subscription.delivered(1, GROUP, 0, new byte[] {7});
        subscription.lost(1, GROUP, 1);

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

        assertNull(channel.readOutbound());
    }

    @Test
    void shouldDropWhileUnwritableAndReportTheCountWhenWritable() {
        unwritable(true);
        subscription.delivered(1, GROUP, 0, new byte[1]);
        subscription.lost(1, GROUP, 1);
        subscription.delivered(1, GROUP, 2, new byte[1]);
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

        assertEquals(new ApiPush.Overflow(1), channel.readOutbound());
        assertEquals(1, assertInstanceOf(ApiPush.Deliver.class, channel.readOutbound()).seqno());
    }

    @Test
    void shouldSendNoOverflowWhenNothingWasDropped() {
        subscription.writable();

        assertNull(channel.readOutbound());
        assertEquals(0, counters.get(ApiCounter.OVERFLOWS_SENT));
    }

    private void unwritable(boolean full) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(BACKPRESSURE, !full);
    }
}
