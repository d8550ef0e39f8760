package io.ricochet.bench.perturb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.engine.Delivery;
import io.ricochet.wire.FrameType;
import org.junit.jupiter.api.Test;

/** The two experiments' measurements, fed by hand. */
class ObserversTest {
    private static final long MS = 1_000_000L;

    @Test
    void receiverCountsSplitTheOriginalMulticastFromRecovery() {
        ReceiverCounts counts = new ReceiverCounts(3, 1000 * MS);
        counts.sent(0, 0, 0, 10 * MS);      // reaches 1 and 2 directly, 3 by recovery
        counts.sent(0, 0, 1, 20 * MS);      // reaches nobody
        counts.sent(1, 0, 0, 30 * MS);      // reaches all three directly
        counts.sent(1, 0, 1, 2000 * MS);    // after the measured time: not counted
        counts.delivered(1, 0, 0, 0, Delivery.DIRECT, 11 * MS);
        counts.delivered(2, 0, 0, 0, Delivery.DIRECT, 11 * MS);
        counts.delivered(3, 0, 0, 0, Delivery.NAK, 200 * MS);
        for (int node : new int[] {0, 2, 3}) {
            counts.delivered(node, 1, 0, 0, Delivery.DIRECT, 31 * MS);
        }
        counts.delivered(0, 1, 0, 1, Delivery.DIRECT, 2001 * MS);
        assertEquals(3, counts.messages());
        assertArrayEquals(new long[] {1, 0, 1, 1}, counts.beforeRecovery());
        assertArrayEquals(new long[] {1, 0, 0, 2}, counts.afterRecovery());
    }

    @Test
    void aMessageDeliveredMoreOftenThanTheGroupHasReceiversIsAnError() {
        ReceiverCounts counts = new ReceiverCounts(1, 1000 * MS);
        counts.sent(0, 0, 0, 0);
        counts.delivered(1, 0, 0, 0, Delivery.DIRECT, 1);
        counts.delivered(2, 0, 0, 0, Delivery.DIRECT, 1);
        assertThrows(IllegalStateException.class, counts::afterRecovery);
    }

    @Test
    void healthyThroughputCountsHealthySendersPerHealthyMemberPerSecond() {
        // 3 members, node 2 sleeps; bins of 500 ms over 1 s.
        HealthyThroughput t = new HealthyThroughput(3, 2, 500 * MS, 1000 * MS);
        t.sent(0, 0, 0, 100 * MS);
        t.sent(2, 0, 0, 100 * MS);
        t.delivered(1, 0, 0, 0, Delivery.DIRECT, 102 * MS);   // healthy member, healthy sender: bin 0
        t.delivered(2, 0, 0, 0, Delivery.DIRECT, 700 * MS);   // the sleeper, late: bin 1
        t.delivered(0, 2, 0, 0, Delivery.DIRECT, 104 * MS);   // the sleeper's message: latency only
        t.received(0, FrameType.DATA, 102 * MS);
        t.received(0, FrameType.PBCAST_FIRST, 300 * MS);
        t.received(2, FrameType.PBCAST_FIRST, 300 * MS);      // the sleeper's frames are not the healthy ones'
        // One delivery in 500 ms, over two healthy members: 1 per second each.
        assertArrayEquals(new double[] {1, 0}, t.healthyPerSecond());
        assertArrayEquals(new double[] {0, 2}, t.sleeperPerSecond());
        assertEquals(2, t.latencyMs().count());
        assertEquals(3.0, t.latencyMs().mean(), 0.01);
        assertEquals(0.5, t.controlPerHealthyPerSecond());
    }
}
