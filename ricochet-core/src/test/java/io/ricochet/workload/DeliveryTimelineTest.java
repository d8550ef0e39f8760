package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.client.Delivery;
import org.junit.jupiter.api.Test;

class DeliveryTimelineTest {
    private static final long T0 = 1_700_000_000_000_000L;

    @Test
    void shouldCountFirstDeliveriesPerOriginPerSecondOfReceipt() {
        long[] clock = {T0 + 100};
        DeliveryRecorder recorder = new DeliveryRecorder(1, 0L, () -> clock[0]);
        recorder.accept(good(2, 0));
        recorder.accept(good(2, 1));
        recorder.accept(good(2, 1));                    // a duplicate: not counted
        recorder.accept(good(1, 0));                    // this node's own: not counted
        recorder.accept(Delivery.lost(3, 5, 7));        // a LOST notice: not counted
        clock[0] = T0 + 2_500_000;
        recorder.accept(good(3, 0));

        DeliveryTimeline t = recorder.snapshot().timeline();

        long first = T0 / 1_000_000;
        assertEquals(first, t.startSecond());
        assertEquals(2, t.count(2, first));
        assertEquals(0, t.count(2, first + 2));
        assertEquals(1, t.count(3, first + 2));
        assertEquals(0, t.count(1, first));
        assertEquals(0, t.count(3, first + 1));
        assertEquals(0, t.outside());
    }

    @Test
    void shouldStayBoundedInSecondsAndOrigins() {
        DeliveryTimeline t = new DeliveryTimeline();
        t.add(1, T0);
        t.add(1, T0 - 1_000_000);                                   // before the first second
        t.add(1, T0 + DeliveryTimeline.MAX_SECONDS * 1_000_000L);   // past the last one kept
        for (int origin = 2; origin < DeliveryTimeline.MAX_ORIGINS + 10; origin++) {
            t.add(origin, T0);
        }
        assertEquals(DeliveryTimeline.MAX_ORIGINS, t.origins().size());
        assertEquals(2 + 9, t.outside());
        assertTrue(t.origins().get(1).length <= DeliveryTimeline.MAX_SECONDS);
    }

    @Test
    void shouldRoundTripThroughJsonAndReadOldFilesAsEmpty() throws Exception {
        DeliveryTimeline t = new DeliveryTimeline();
        t.add(4, T0);
        t.add(4, T0 + 3_000_000);
        t.add(9, T0 + 1_000_000);
        String text = WorkloadJson.MAPPER.writeValueAsString(t.toJson());

        DeliveryTimeline back = DeliveryTimeline.fromJson(WorkloadJson.MAPPER.readTree(text));

        long first = T0 / 1_000_000;
        assertEquals(first, back.startSecond());
        assertEquals(1, back.count(4, first + 3));
        assertEquals(1, back.count(9, first + 1));
        assertEquals(t.toJson(), back.toJson());
        assertEquals(-1, DeliveryTimeline.fromJson(null).startSecond());
    }

    @Test
    void shouldNameWhatIsMalformed() {
        ObjectNode json = new DeliveryTimeline().toJson();
        json.with("origins").put("x", 3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeliveryTimeline.fromJson(json));
        assertTrue(e.getMessage().contains("origin x"), e.getMessage());
    }

    private static Delivery good(int origin, long seqno) {
        return Delivery.delivered(origin, 5, seqno, PayloadCodec.encode(origin, 5, seqno, 0L, 0L, 64));
    }
}
