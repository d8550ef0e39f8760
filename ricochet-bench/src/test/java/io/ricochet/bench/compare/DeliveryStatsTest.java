package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.workload.LatencyHistogram;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryStatsTest {
    @Test
    void deliveriesAreCountedPerSenderAndOnlyDroppedOnesAreRecoveries() {
        DeliveryStats stats = new DeliveryStats(1);
        stats.timeWindow(0, 5_000_000);
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
    void onlyMessagesSentInTheWindowAreTimed() {
        DeliveryStats stats = new DeliveryStats(1);
        stats.delivered(new Payload.Stamp(2, 0, 500), true, 2_000_000_000L);
        stats.timeWindow(1_000, 2_000);
        stats.delivered(new Payload.Stamp(2, 1, 999), true, 2_000_000_000L);
        stats.delivered(new Payload.Stamp(2, 2, 1_000), true, 1_001_000);
        stats.delivered(new Payload.Stamp(2, 3, 1_999), false, 3_000_999);
        stats.delivered(new Payload.Stamp(2, 4, 2_000), true, 2_000_000_000L);
        assertEquals(5, stats.delivered());
        assertEquals(Map.of(2, 5L), stats.perSender());
        LatencyHistogram recovery = LatencyHistogram.decode(stats.recoveryLatencies());
        assertEquals(1, recovery.count());
        assertEquals(1.0, recovery.summary().max(), 0.01);
        LatencyHistogram all = LatencyHistogram.decode(stats.allLatencies());
        assertEquals(2, all.count());
        assertEquals(3.0, all.summary().max(), 0.01);
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
