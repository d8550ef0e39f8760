package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.MessageId;
import org.junit.jupiter.api.Test;

class DeliveryTest {
    @Test
    void shouldCoverItsOwnIdWhenDelivered() {
        Delivery d = Delivery.delivered(1, 2, MessageId.of(5, 3), new byte[] {9});

        assertFalse(d.isLost());
        assertTrue(d.covers(MessageId.of(5, 3)));
        assertFalse(d.covers(MessageId.of(5, 4)));
        assertEquals(d.seqno(), d.lastId());
    }

    @Test
    void shouldCoverTheWholeDatagramWhenLost() {
        Delivery d = Delivery.lost(1, 2, MessageId.of(5, 0));

        assertTrue(d.isLost());
        assertTrue(d.covers(MessageId.of(5, 4095)));
        assertFalse(d.covers(MessageId.of(6, 0)));
        assertEquals(MessageId.of(5, 4095), d.lastId());
    }

    @Test
    void shouldCoverItsRunWhenDropped() {
        Delivery d = Delivery.dropped(1, 2, MessageId.of(5, 2), MessageId.of(7, 0));

        assertTrue(d.isLost(), "a dropped message never reaches the connection either");
        assertEquals(Delivery.Kind.DROPPED, d.kind());
        assertFalse(d.covers(MessageId.of(5, 1)));
        assertTrue(d.covers(MessageId.of(5, 2)));
        assertTrue(d.covers(MessageId.of(6, 17)));
        assertTrue(d.covers(MessageId.of(7, 0)));
        assertFalse(d.covers(MessageId.of(7, 1)));
        assertEquals(0, d.payload().length);
    }

    @Test
    void shouldRefuseARunThatEndsBeforeItStarts() {
        assertThrows(IllegalArgumentException.class, () -> Delivery.dropped(1, 2, 10, 9));
    }
}
