package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeliveryCounterTest {
    @Test
    void shouldCountDeliveriesLossesAndDuplicatesPerStream() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(1, 100, 0);
        counter.delivered(1, 100, 1);
        counter.delivered(2, 100, 0);
        counter.delivered(1, 101, 0);
        counter.lost(1, 100, 2);
        counter.delivered(1, 100, 1);
        counter.delivered(1, 100, 2);
        DeliveryCounter.Totals t = counter.totals();
        assertEquals(4, t.delivered());
        assertEquals(1, t.lost());
        assertEquals(2, t.duplicates(), "seqno 1 twice, and seqno 2 delivered after its loss notice");
        assertEquals(3, t.streams());
    }

    @Test
    void shouldCountSeqnosItCannotCheck() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(1, 1, 1L << 40);
        counter.delivered(1, 1, 1L << 40);
        assertEquals(2, counter.totals().delivered());
        assertEquals(2, counter.totals().unchecked());
        assertEquals(0, counter.totals().duplicates());
    }
}
