package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class WakeRequestsTest {
    private final RecordingOutbox out = new RecordingOutbox();
    private final WakeRequests wakes = new WakeRequests(out);

    @Test
    void shouldAskOnlyForAnEarlierDeadlineWhileOneIsPending() {
        wakes.request(100, 0);
        wakes.request(100, 10);
        wakes.request(150, 20);
        wakes.request(80, 30);

        assertEquals(List.of(100L, 80L), out.wakes);
    }

    @Test
    void shouldAskAgainOnceTheRequestedDeadlineHasPassed() {
        wakes.request(100, 0);
        wakes.request(200, 100);

        assertEquals(List.of(100L, 200L), out.wakes);
    }

    @Test
    void shouldNotAskWhenThereIsNoDeadline() {
        wakes.request(Long.MAX_VALUE, 0);

        assertEquals(List.of(), out.wakes);
    }
}
