package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

class SettleWaitTest {
    private static final long S = 1_000_000_000L;

    /** A clock that moves only when the wait sleeps, and a delivery count that is a function of that clock. */
    private static long waited(SettleWait wait, LongUnaryOperator deliveredAt) throws InterruptedException {
        long[] now = {100 * S};
        long start = now[0];
        wait.await(() -> now[0], () -> deliveredAt.applyAsLong(now[0] - start), ns -> now[0] += ns, () -> { });
        return now[0] - start;
    }

    @Test
    void shouldEndOneSettleTimeAfterTheLastSendWhenNothingMoreArrives() throws InterruptedException {
        assertEquals(3 * S, waited(new SettleWait(3 * S, 10, S / 10), t -> 500));
    }

    @Test
    void shouldWaitForAnotherNodesLateSendsUntilDeliveriesStop() throws InterruptedException {
        // Another node's last sends keep arriving for 7 s after this node's last: the wait ends 3 s after them.
        long waited = waited(new SettleWait(3 * S, 10, S / 10), t -> Math.min(t, 7 * S) / (S / 10));

        assertEquals(10 * S, waited);
    }

    @Test
    void shouldStopAtTheCapWhatEverKeepsArriving() throws InterruptedException {
        assertEquals(30 * S, waited(new SettleWait(3 * S, 10, S / 10), t -> t));
    }

    @Test
    void shouldNotWaitWithASettleTimeOfZero() throws InterruptedException {
        assertEquals(0, waited(new SettleWait(0, 10, S / 10), t -> t));
    }
}
