package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RateScheduleTest {
    private static final long S = 1_000_000_000L;

    @Test
    void shouldParsePhasesInOrder() {
        RateSchedule s = RateSchedule.parse("120000:10, 30000:15");
        assertEquals(List.of(new RateSchedule.Phase(120_000, 10), new RateSchedule.Phase(30_000, 15)), s.phases());
        assertEquals(25 * S, s.totalNanos());
        assertEquals(10 * S, s.phaseStartNanos(1));
        assertEquals(120_000, s.peakRate());
        assertEquals("120000:10,30000:15", s.toString());
        assertEquals(s, RateSchedule.parse(s.toString()));
        assertEquals("333.3:2.5", RateSchedule.parse("333.3:2.5").toString());
    }

    @Test
    void shouldCountWhatIsDueAcrossPhases() {
        RateSchedule s = RateSchedule.parse("1000:2,100:3");
        assertEquals(0, s.dueTotal(0));
        assertEquals(500, s.dueTotal(S / 2));
        assertEquals(2000, s.dueTotal(2 * S), "the whole first phase");
        assertEquals(2050, s.dueTotal(2 * S + S / 2), "then 100/s");
        assertEquals(2300, s.dueTotal(5 * S));
        assertEquals(2300, s.dueTotal(60 * S), "nothing more after the end");
        assertEquals(2300, s.totalPackets());
        assertEquals(1000, s.rateAt(S));
        assertEquals(100, s.rateAt(2 * S));
        assertEquals(0, s.rateAt(5 * S));
    }

    @Test
    void shouldGiveAConstantRateTheCountsOfOnePhase() {
        RateSchedule s = RateSchedule.constant(20_000, 10);
        assertEquals(20, s.dueTotal(1_000_000L), "exactly 20 at 1 ms");
        assertEquals(200_000, s.totalPackets());
    }

    @Test
    void shouldRefuseBadSchedulesWithAMessageSayingWhy() {
        assertMessage("", "empty schedule");
        assertMessage("  ", "empty schedule");
        assertMessage("1000", "not RATE:SECONDS");
        assertMessage("1000:5:3", "not RATE:SECONDS");
        assertMessage("1000:5,", "not RATE:SECONDS");
        assertMessage("fast:5", "rate 'fast'");
        assertMessage("1000:soon", "duration 'soon'");
        assertMessage("0:5", "rate must be a positive");
        assertMessage("-10:5", "rate must be a positive");
        assertMessage("NaN:5", "rate must be a positive");
        assertMessage("Infinity:5", "rate must be a positive");
        assertMessage("1000:0", "duration must be a positive");
        assertMessage("1000:-1", "duration must be a positive");
        assertMessage("1000:1e300", "duration must be a positive");
        assertMessage("1000:0.0000001", "at least 1 ms");
        assertMessage("1:1,".repeat(64) + "1:1", "at most 64");
        assertThrows(IllegalArgumentException.class, () -> RateSchedule.constant(0, 10));
        assertThrows(IllegalArgumentException.class, () -> RateSchedule.constant(10, 0));
    }

    private static void assertMessage(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse(text),
                text);
        assertTrue(e.getMessage().contains(expected), text + ": " + e.getMessage());
    }
}
