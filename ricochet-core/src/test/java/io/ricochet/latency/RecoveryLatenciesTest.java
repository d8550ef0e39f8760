package io.ricochet.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import org.junit.jupiter.api.Test;

/** Recovery latency as both drivers measure it: from the drop, by how the packet came back, per receiver. */
class RecoveryLatenciesTest {
    private static final long MS = 1_000_000L;
    private static final PacketId A = new PacketId(1, 7, 0);
    private static final PacketId B = new PacketId(1, 7, 1);

    @Test
    void shouldMeasureFromTheDropSplitByHowThePacketCameBack() {
        RecoveryLatencies r = new RecoveryLatencies(1024, true);
        r.dropped(3, A, 0);
        r.dropped(3, B, 0);
        r.discovered(3, A, 2 * MS);
        r.recovered(3, A, Delivery.LEC, 5 * MS);
        r.recovered(3, B, Delivery.NAK, 150 * MS);

        assertEquals(1, r.lec().count());
        assertEquals(5.0, r.lec().summary().mean(), 0.01);
        assertEquals(1, r.nak().count());
        assertEquals(150.0, r.nak().summary().mean(), 0.1);
        assertEquals(2, r.recovery().count());
        assertEquals(1, r.discovery().count());
        assertEquals(2.0, r.discovery().summary().mean(), 0.01);
        assertEquals(1, r.sinceDiscovery().count(), "only A was found missing before it came back");
        assertEquals(3.0, r.sinceDiscovery().summary().mean(), 0.01);
    }

    @Test
    void shouldKeepReceiversApartAndIgnoreDirectDeliveries() {
        RecoveryLatencies r = new RecoveryLatencies(1024, false);
        r.dropped(3, A, 0);

        r.recovered(4, A, Delivery.LEC, 5 * MS);
        r.recovered(3, A, Delivery.DIRECT, 6 * MS);
        assertEquals(0, r.recovery().count(), "another receiver's recovery, and a direct delivery, are none");

        r.recovered(3, A, Delivery.LATE, 9 * MS);
        assertEquals(1, r.late().count());
        r.recovered(3, A, Delivery.NAK, 12 * MS);
        assertEquals(0, r.nak().count(), "a drop is recovered once");
    }

    @Test
    void shouldForgetTheOldestDropsBeyondItsCapacity() {
        RecoveryLatencies r = new RecoveryLatencies(1, false);
        r.dropped(3, A, 0);
        r.dropped(3, B, 1 * MS);

        r.recovered(3, A, Delivery.LEC, 5 * MS);
        r.recovered(3, B, Delivery.LEC, 5 * MS);

        assertEquals(1, r.lec().count());
        assertEquals(4.0, r.lec().summary().mean(), 0.01, "only B's drop time was still kept");
    }

    @Test
    void shouldSplitTheTimeSinceDiscoveryByHowTheLossCameBack() {
        RecoveryLatencies r = new RecoveryLatencies(1024, true);
        r.discovered(3, A, 0);
        r.discovered(3, B, 0);
        r.recovered(3, A, Delivery.LEC, 4 * MS);
        r.recovered(3, B, Delivery.NAK, 120 * MS);

        assertEquals(1, r.sinceDiscovery(Delivery.LEC).count());
        assertEquals(4.0, r.sinceDiscovery(Delivery.LEC).summary().mean(), 0.01);
        assertEquals(1, r.sinceDiscovery(Delivery.NAK).count());
        assertEquals(0, r.sinceDiscovery(Delivery.LATE).count());
        assertEquals(2, r.sinceDiscovery().count(), "the split adds up to the whole");
        assertThrows(IllegalArgumentException.class, () -> r.sinceDiscovery(Delivery.DIRECT));
        assertThrows(IllegalArgumentException.class,
                () -> new RecoveryLatencies(16, false).sinceDiscovery(Delivery.LEC));
    }
}
