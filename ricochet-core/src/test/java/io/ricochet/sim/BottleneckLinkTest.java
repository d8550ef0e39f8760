package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BottleneckLinkTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldSendAtItsRateOnePacketAfterAnother() {
        BottleneckLink link = new BottleneckLink(1000, 10); // 1 ms a packet
        List<Long> departures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            departures.add(link.offer(0));
        }
        assertEquals(List.of(MS, 2 * MS, 3 * MS, 4 * MS, 5 * MS), departures);
        assertEquals(20 * MS + MS, link.offer(20 * MS), "an idle link sends at once");
    }

    @Test
    void shouldDropWhenTheQueueIsFullThenTakeAgainOnceItDrains() {
        BottleneckLink link = new BottleneckLink(1000, 3);
        List<Long> departures = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            departures.add(link.offer(0));
        }
        // One being sent and three waiting; the fifth and sixth find the queue full.
        assertEquals(List.of(MS, 2 * MS, 3 * MS, 4 * MS, -1L, -1L), departures);
        assertEquals(2, link.dropped());
        assertEquals(5 * MS, link.offer(MS), "the first has left: room for one");
        assertEquals(-1, link.offer(MS));
        assertEquals(8, link.offered());
    }

    @Test
    void shouldApplyARateChangeToLaterPackets() {
        BottleneckLink link = new BottleneckLink(1000, 10);
        assertEquals(MS, link.offer(0));
        link.rate(500);
        assertEquals(3 * MS, link.offer(0));
    }

    @Test
    void shouldRefuseABadRateOrQueue() {
        assertEquals("link rate 0.0 packets/s: must be in (0, 1e9]",
                assertThrows(IllegalArgumentException.class, () -> new BottleneckLink(0, 1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BottleneckLink(10, -1));
    }
}
