package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bound on a partition's pending Raft requests: by count and by bytes, the rest sent later in arrival order. */
class RaftWindowTest {
    private final GmsCounters counters = new GmsCounters();
    private final List<Integer> sent = new ArrayList<>();

    @Test
    void shouldSendUpToTheBoundThenTheRestInArrivalOrderAsEarlierOnesComplete() {
        RaftWindow window = new RaftWindow(2, 1_000, counters);
        for (int i = 0; i < 5; i++) {
            int id = i;
            window.submit(10, () -> sent.add(id));
        }
        assertEquals(List.of(0, 1), sent);
        assertEquals(3, window.waiting());
        assertEquals(3, counters.get(GmsCounter.RAFT_WINDOW_WAITS));
        window.release(10);
        assertEquals(List.of(0, 1, 2), sent);
        window.release(10);
        window.release(10);
        assertEquals(List.of(0, 1, 2, 3, 4), sent);
        assertEquals(2, window.inFlight());
        assertEquals(0, window.waiting());
    }

    @Test
    void shouldBoundTheBytesTooAndNeverLetALaterSmallRequestOvertakeAWaitingOne() {
        RaftWindow window = new RaftWindow(100, 100, counters);
        window.submit(60, () -> sent.add(0));
        window.submit(60, () -> sent.add(1));   // 120 bytes: waits
        window.submit(10, () -> sent.add(2));   // would fit, but waits behind 1
        assertEquals(List.of(0), sent);
        window.release(60);
        assertEquals(List.of(0, 1, 2), sent);
        assertEquals(2, window.inFlight());
    }
}
