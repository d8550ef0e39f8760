package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PacerTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldSendWhatIsDueEachTick() {
        Pacer pacer = new Pacer(20_000, 80);
        long total = 0;
        for (long t = 1; t <= 1000; t++) {
            int batch = pacer.batch(t * MS);
            assertEquals(20, batch, "20 000/s is 20 per millisecond");
            pacer.sent(batch);
            total += batch;
        }
        assertEquals(20_000, total);
        assertEquals(20_000.0, pacer.achievedRate(1000 * MS), 1e-9);
        assertEquals(0, pacer.behind(1000 * MS));
    }

    @Test
    void shouldCarryFractionsSoTheMeanRateIsExact() {
        Pacer pacer = new Pacer(333.3, 10);
        for (long t = 1; t <= 10_000; t++) {
            pacer.sent(pacer.batch(t * MS));
        }
        assertEquals(3333, pacer.sent(), "floor(333.3 * 10 s)");
    }

    @Test
    void shouldCapTheCatchUpAfterALateWakeUp() {
        Pacer pacer = new Pacer(10_000, 40);
        assertEquals(40, pacer.batch(50 * MS), "500 due after a 50 ms stall, but one batch holds at most 40");
        pacer.sent(40);
        assertEquals(460, pacer.behind(50 * MS));
        pacer.sent(pacer.batch(51 * MS));
        assertEquals(80, pacer.sent());
    }

    @Test
    void shouldSendNothingBeforeTheStartOrWhenAhead() {
        Pacer pacer = new Pacer(1000, 10);
        assertEquals(0, pacer.batch(0));
        assertEquals(0, pacer.batch(-5 * MS));
        pacer.sent(5);
        assertEquals(0, pacer.batch(3 * MS), "5 sent, 3 due");
        assertEquals(0, pacer.behind(3 * MS));
    }

    @Test
    void shouldNotLosePrecisionOverLongRuns() {
        Pacer pacer = new Pacer(90_000, 1000);
        assertEquals(90_000L * 3600, pacer.dueTotal(3600L * 1000 * MS), "one hour at 90 000/s");
    }

    @Test
    void shouldSizeBatchesForTheTick() {
        assertEquals(80, Pacer.maxBatchFor(20_000, MS, 4));
        assertEquals(1, Pacer.maxBatchFor(10, MS, 4), "at least one packet per batch");
        assertEquals(3, Pacer.maxBatchFor(2_500, MS, 1), "2.5 per tick rounds up");
    }

    @Test
    void shouldRefuseNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new Pacer(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(Double.POSITIVE_INFINITY, 1));
        assertThrows(IllegalArgumentException.class, () -> new Pacer(100, 0));
    }

    @Test
    void shouldFollowAScheduleWithoutABurstAtTheChange() {
        Pacer pacer = new Pacer(RateSchedule.parse("20000:1,5000:1"), 80);
        long first = 0;
        for (long t = 1; t <= 1000; t++) {
            int batch = pacer.batch(t * MS);
            pacer.sent(batch);
            first += batch;
        }
        assertEquals(20_000, first);
        for (long t = 1001; t <= 2000; t++) {
            int batch = pacer.batch(t * MS);
            assertEquals(5, batch, "5 000/s is 5 per millisecond");
            pacer.sent(batch);
        }
        assertEquals(0, pacer.batch(3000 * MS), "nothing due after the schedule");
        assertEquals(25_000, pacer.sent());
    }

    @Test
    void shouldSkipWhatAPhaseStillOwedAtItsEndInsteadOfSendingItInTheNext() {
        Pacer pacer = new Pacer(RateSchedule.parse("10000:1,1000:1"), 100_000);
        pacer.sent(pacer.batch(500 * MS));
        assertEquals(5000, pacer.sent(), "a stall: nothing more sent until the next phase");
        assertEquals(5000, pacer.behind(1000 * MS));
        assertEquals(1, pacer.batch(1001 * MS), "the next phase's own packet only");
        assertEquals(5000, pacer.skipped());
        assertEquals(0, pacer.behind(1000 * MS + 500_000));
        for (long t = 1001; t <= 2000; t++) {
            pacer.sent(pacer.batch(t * MS));
        }
        assertEquals(6000, pacer.sent(), "5000 of the first phase, 1000 of the second");
        assertEquals(5000, pacer.skipped());
        assertEquals(0, pacer.behind(2000 * MS));
    }
}
