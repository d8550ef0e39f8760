package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The NAK token bucket, on virtual time. */
class NakPacerTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldAllowABurstThenTheAverageRate() {
        NakPacer pacer = new NakPacer(1000, 10);
        int sent = 0;
        for (int i = 0; i < 100; i++) {
            sent += pacer.tryAcquire(0) ? 1 : 0;
        }
        assertEquals(10, sent, "the burst");
        sent = 0;
        for (long t = 0; t <= 1000 * MS; t += MS / 10) {
            sent += pacer.tryAcquire(t) ? 1 : 0;
        }
        assertTrue(sent >= 999 && sent <= 1001, "about 1000 in the next second: " + sent);
    }

    @Test
    void shouldNeverLimitWhenTheRateIsZero() {
        NakPacer pacer = new NakPacer(0, 1);
        for (int i = 0; i < 100_000; i++) {
            assertTrue(pacer.tryAcquire(0));
        }
    }
}
