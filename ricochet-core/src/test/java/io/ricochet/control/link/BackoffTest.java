package io.ricochet.control.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void shouldDoubleFromOneHundredMillisecondsToTheFiveSecondCap() {
        Backoff backoff = new Backoff(ControlLink.INITIAL_BACKOFF_MS, ControlLink.MAX_BACKOFF_MS);
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            delays.add(backoff.nextDelayMs());
        }
        assertEquals(List.of(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L, 5000L), delays);
    }

    @Test
    void shouldStartOverAfterReset() {
        Backoff backoff = new Backoff(100, 5000);
        backoff.nextDelayMs();
        backoff.nextDelayMs();
        backoff.reset();
        assertEquals(100L, backoff.nextDelayMs());
    }

    @Test
    void shouldRefuseNonsenseBounds() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(100, 50));
    }
}
