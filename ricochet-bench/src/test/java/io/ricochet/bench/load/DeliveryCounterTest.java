package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeliveryCounterTest {
    private static final long D = 4096;

    @Test
    void shouldCountDeliveriesLossesAndDuplicatesPerStream() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(1, 100, 0);
        counter.delivered(1, 100, D);
        counter.delivered(1, 100, D + 1);
        counter.delivered(2, 100, 0);
        counter.delivered(1, 101, 0);
        counter.lost(1, 100, 2 * D);
        counter.delivered(1, 100, D + 1);
        counter.delivered(1, 100, 0);
        counter.delivered(1, 100, 2 * D + 3);
        counter.lost(1, 100, D);
        DeliveryCounter.Totals t = counter.totals();
        assertEquals(5, t.delivered());
        assertEquals(1, t.lost());
        assertEquals(4, t.duplicates(), "id D+1 twice, id 0 again after another datagram, a message of datagram 2 "
                + "after its loss notice, and a loss notice for datagram 1, which was delivered");
        assertEquals(3, t.streams());
    }

    @Test
    void shouldCountIdsItCannotCheck() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(1, 1, 1L << 60);
        counter.delivered(1, 1, 1L << 60);
        assertEquals(2, counter.totals().delivered());
        assertEquals(2, counter.totals().unchecked());
        assertEquals(0, counter.totals().duplicates());
    }
}
