package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.workload.LatencyHistogram;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryStatsTest {
    @Test
    void deliveriesAreCountedPerSenderAndOnlyDroppedOnesAreRecoveries() {
        DeliveryStats stats = new DeliveryStats(1);
        stats.delivered(new Payload.Stamp(2, 0, 1_000_000), false, 3_000_000);
        stats.delivered(new Payload.Stamp(2, 1, 1_000_000), true, 11_000_000);
        stats.delivered(new Payload.Stamp(3, 0, 1_000_000), false, 2_000_000);
        assertEquals(3, stats.delivered());
        assertEquals(1, stats.recovered());
        assertEquals(Map.of(2, 2L, 3, 1L), stats.perSender());
        LatencyHistogram recovery = LatencyHistogram.decode(stats.recoveryLatencies());
        assertEquals(1, recovery.count());
        assertEquals(10.0, recovery.summary().p50(), 0.01);
        assertEquals(3, LatencyHistogram.decode(stats.allLatencies()).count());
    }

    @Test
    void ownMessagesAndForeignPayloadsAreNotDeliveries() {
        DeliveryStats stats = new DeliveryStats(1);
        stats.delivered(new Payload.Stamp(1, 0, 0), true, 5);
        stats.delivered(null, false, 5);
        assertEquals(0, stats.delivered());
        assertEquals(0, stats.recovered());
        assertEquals(1, stats.own());
        assertEquals(1, stats.malformed());
    }
}
