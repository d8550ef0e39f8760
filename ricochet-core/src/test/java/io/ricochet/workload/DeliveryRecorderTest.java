package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.client.Delivery;
import org.junit.jupiter.api.Test;

class DeliveryRecorderTest {
    private long clock = 2_000L;
    private final DeliveryRecorder recorder = new DeliveryRecorder(1, 0L, () -> clock);

    @Test
    void shouldSortDeliveriesIntoReceivedDuplicatesCorruptSelfAndLost() {
        recorder.accept(good(2, 5, 0, 1_000));
        recorder.accept(good(2, 5, 1, 1_500));
        recorder.accept(good(2, 5, 1, 1_500));
        recorder.accept(good(1, 5, 0, 1_000));
        recorder.accept(Delivery.delivered(3, 5, 0, PayloadCodec.encode(2, 5, 0, 0, 0L, 48)));
        recorder.accept(Delivery.lost(3, 5, 1));

        DeliveryRecorder.Snapshot s = recorder.snapshot();

        assertEquals("[0..1]", s.received().get(new StreamKey(2, 5)).toString());
        assertEquals("[0]", s.received().get(new StreamKey(3, 5)).toString(), "corrupt still counts as received");
        assertEquals(1, s.duplicates().count());
        assertEquals(new Violation(2, 5, 1, 1, ""), s.duplicates().first().get(0));
        assertEquals(1, s.corrupt().count());
        assertEquals(1, s.selfDeliveries());
        assertEquals("[1]", s.lost().get(new StreamKey(3, 5)).toString());
        assertEquals(2, s.latency().count());
        assertEquals(1.0, s.latency().summary().max());
        assertEquals(5, recorder.delivered());
        assertEquals(1, recorder.lostNotices());
    }

    private static Delivery good(int origin, int group, long seqno, long sentAtMicros) {
        return Delivery.delivered(origin, group, seqno,
                PayloadCodec.encode(origin, group, seqno, sentAtMicros, 0L, 64));
    }
}
