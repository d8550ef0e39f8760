package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The round clock: a random phase drawn once and kept, per-round budgets, stop and restart. */
class GossipRoundsTest {
    private static final long PERIOD = 100;

    @Test
    void shouldKeepTheRandomPhaseAcrossAStop() {
        for (long seed = 0; seed < 50; seed++) {
            GossipRounds rounds = new GossipRounds(PERIOD, 2, 1);
            rounds.ensureRunning(1_000, new SplittableRandom(seed));
            long first = rounds.nextDeadlineNs();
            assertTrue(first >= 1_000 && first < 1_000 + PERIOD, "first round within one period: " + first);
            assertEquals(1, rounds.advance(first));
            assertEquals(first + PERIOD, rounds.nextDeadlineNs());
            rounds.stop();
            assertEquals(Long.MAX_VALUE, rounds.nextDeadlineNs());
            assertFalse(rounds.due(Long.MAX_VALUE - 1));
            rounds.ensureRunning(first + 12_345, new SplittableRandom(-1));
            long again = rounds.nextDeadlineNs();
            assertEquals(Math.floorMod(first, PERIOD), Math.floorMod(again, PERIOD), "same phase");
            assertTrue(again >= first + 12_345 && again < first + 12_345 + PERIOD);
        }
    }

    @Test
    void shouldRunOneRoundForALateTimerAndResetTheBudgets() {
        GossipRounds rounds = new GossipRounds(PERIOD, 2, 1);
        rounds.ensureRunning(0, new SplittableRandom(3));
        long first = rounds.nextDeadlineNs();
        assertTrue(rounds.tryRequest());
        assertTrue(rounds.tryRequest());
        assertFalse(rounds.tryRequest(), "limit-requests 2");
        rounds.retransmitted();
        assertFalse(rounds.mayRetransmit(), "limit-retrans 1");
        long late = first + 5 * PERIOD + 1;
        assertTrue(rounds.due(late));
        rounds.advance(late);
        assertFalse(rounds.due(late), "one round, not five");
        assertEquals(first + 6 * PERIOD, rounds.nextDeadlineNs());
        assertTrue(rounds.tryRequest());
        assertTrue(rounds.mayRetransmit());
        assertTrue(rounds.isCurrent(1));
        assertFalse(rounds.isCurrent(0));
    }
}
