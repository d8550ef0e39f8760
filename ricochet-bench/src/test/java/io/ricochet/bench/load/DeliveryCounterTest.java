package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.StreamTable;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryCounterTest {
    @Test
    void shouldCountDeliveriesLossesDuplicatesAndBothPerStream() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(1, 100, 0);
        counter.delivered(1, 100, 1);
        counter.delivered(2, 100, 0);
        counter.delivered(1, 101, 0);
        counter.lost(1, 100, 2);
        counter.delivered(1, 100, 1);
        counter.delivered(1, 100, 2);
        counter.lost(1, 100, 2);
        DeliveryCounter.Totals t = counter.totals();
        assertEquals(5, t.delivered());
        assertEquals(1, t.lost());
        assertEquals(2, t.duplicates(), "seqno 1 delivered twice, seqno 2 reported lost twice");
        assertEquals(1, t.both(), "seqno 2 delivered after its loss notice");
        assertEquals(3, t.streams());
    }

    @Test
    void shouldCountADroppedRunAsReportedAndKeepThePromise() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(1, 100, 0);
        counter.dropped(1, 100, 1, 3);
        counter.delivered(1, 100, 4);
        DeliveryCounter.Totals t = counter.totals();
        assertEquals(3, t.dropped());
        assertEquals(0, t.lost());
        PromiseTally tally = counter.check(Map.of(StreamTable.key(1, 100), 5L));
        assertTrue(tally.kept(), tally.toString());
        assertEquals(3, tally.lost());

        counter.dropped(1, 100, 4, 4);
        assertEquals(1, counter.totals().both(), "a packet delivered and named dropped breaks the promise");
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

    @Test
    void shouldKeepThePromiseWhenEverySeqnoSentIsDeliveredOrLostOnce() {
        DeliveryCounter counter = new DeliveryCounter();
        for (int s = 0; s < 10; s++) {
            if (s % 3 == 0) {
                counter.lost(7, 100, s);
            } else {
                counter.delivered(7, 100, s);
            }
            counter.delivered(8, 100, s);
        }
        PromiseTally tally = counter.check(sent(7, 100, 10, 8, 100, 10));
        assertEquals(new PromiseTally(2, 20, 16, 4, 0, 0, 0, 0, 0, 0), tally);
        assertTrue(tally.kept());
    }

    @Test
    void shouldCountNeitherBothAndDuplicatesAgainstWhatWasSent() {
        DeliveryCounter counter = new DeliveryCounter();
        counter.delivered(7, 100, 0);
        counter.delivered(7, 100, 0);
        counter.lost(7, 100, 1);
        counter.delivered(7, 100, 1);
        counter.delivered(7, 100, 3);
        counter.delivered(7, 100, 9);
        counter.lost(9, 200, 0);
        PromiseTally tally = counter.check(sent(7, 100, 5, 8, 100, 2));
        assertEquals(2, tally.streams());
        assertEquals(7, tally.expected());
        assertEquals(2, tally.delivered(), "seqnos 0 and 3");
        assertEquals(0, tally.lost());
        assertEquals(1, tally.both(), "seqno 1");
        assertEquals(4, tally.neither(), "seqnos 2 and 4 of node 7, both of node 8's two");
        assertEquals(1, tally.duplicates());
        assertEquals(2, tally.unexpected(), "seqno 9 past node 7's five, and node 9's stream nobody reported");
        assertEquals(2, tally.streamsShort());
        assertEquals(3, tally.neitherTail(), "seqno 4 of node 7 (above its 3), both of node 8's: 2 is not a tail");
        assertFalse(tally.kept());
    }

    @Test
    void shouldResolveTheTailOnlyOnceTheLateLossNoticesCome() {
        DeliveryCounter counter = new DeliveryCounter();
        Map<Long, Long> sent = sent(7, 100, 4, 7, 101, 4);
        for (int s = 0; s < 3; s++) {
            counter.delivered(7, 100, s);
            counter.delivered(7, 101, s);
        }
        assertFalse(counter.allResolved(sent), "the last packet of each stream is still being recovered");
        assertEquals(2, counter.check(sent).neither());
        assertEquals(2, counter.check(sent).neitherTail());
        counter.delivered(7, 100, 3);
        counter.lost(7, 101, 3);
        assertTrue(counter.allResolved(sent), "recovered, or given up after the NAK layer's give-up time");
        assertEquals(new PromiseTally(2, 8, 7, 1, 0, 0, 0, 0, 0, 0), counter.check(sent));
    }

    private static Map<Long, Long> sent(int o1, int g1, long n1, int o2, int g2, long n2) {
        return Map.of(StreamTable.key(o1, g1), n1, StreamTable.key(o2, g2), n2);
    }
}
