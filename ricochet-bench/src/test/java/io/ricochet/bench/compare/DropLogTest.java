package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DropLogTest {
    private static DropLog.Key key(long n) {
        return new DropLog.Key(1, n);
    }

    @Test
    void aDroppedMessageIsARecoveryOnceWhenDelivered() {
        DropLog log = new DropLog(8);
        log.dropped(key(5));
        assertTrue(log.delivered(key(5)));
        assertFalse(log.delivered(key(5)), "a second delivery (a duplicate) is no second recovery");
        assertFalse(log.delivered(key(6)), "never dropped");
        assertEquals(1, log.droppedCount());
        assertEquals(0, log.pendingCount());
    }

    @Test
    void aSecondDropOfTheSameMessageCountsOnce() {
        DropLog log = new DropLog(8);
        log.dropped(key(5));
        log.dropped(key(5));
        assertEquals(1, log.droppedCount());
        assertEquals(1, log.pendingCount());
    }

    @Test
    void beyondItsCapacityTheOldestPendingDropIsForgottenAndCounted() {
        DropLog log = new DropLog(2);
        log.dropped(key(1));
        log.dropped(key(2));
        log.dropped(key(3));
        assertEquals(3, log.droppedCount());
        assertEquals(2, log.pendingCount());
        assertEquals(1, log.forgottenCount());
        assertFalse(log.delivered(key(1)));
        assertTrue(log.delivered(key(3)));
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DropLog(0));
    }
}
