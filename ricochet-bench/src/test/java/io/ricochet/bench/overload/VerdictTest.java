package io.ricochet.bench.overload;

import static io.ricochet.bench.overload.TimelineTest.T0;
import static io.ricochet.bench.overload.TimelineTest.generator;
import static io.ricochet.bench.overload.TimelineTest.samples;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.load.PromiseTally;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {
    private static final PromiseTally KEPT = new PromiseTally(32, 1000, 990, 10, 0, 0, 0, 0, 0, 0);

    /** The run with these deliveries in the three seconds after the fall (1000/s offered then). */
    private static Verdict judge(PromiseTally promise, long first, long second, long third) {
        Timeline timeline = Timeline.of(samples(2000, 2000, 1500, 1500, first, second, third, 0, 0),
                List.of(generator(2, T0), generator(3, T0)), 100);
        return Verdict.of(timeline, promise, 0.05, 2);
    }

    @Test
    void shouldPassAGracefulRun() {
        Verdict v = judge(KEPT, 1000, 1000, 1000);
        assertEquals(0, v.timeToClean(), 1e-9);
        assertFalse(v.collapsed());
        assertTrue(v.passed());
        assertEquals(3, v.afterBins());
        assertEquals(3, v.cleanAfterBins());
        assertEquals(6000, v.overloadOffered(), 1e-6);
        assertEquals(1500, v.overloadDelivered(), 1e-6);
        assertEquals(1000, v.afterOffered(), 1e-6);
    }

    @Test
    void shouldTimeTheRecoveryFromTheLastRunOfCleanIntervals() {
        assertEquals(2, judge(KEPT, 100, 100, 1000).timeToClean(), 1e-9);
        assertFalse(judge(KEPT, 100, 100, 1000).collapsed(), "clean 2 s after the fall is within the limit");
        assertEquals(2, judge(KEPT, 1000, 100, 1000).timeToClean(), 1e-9, "a relapse restarts the clock");
        assertEquals(1, judge(KEPT, 10, 960, 1200).timeToClean(), 1e-9, "96 % is clean at 5 % tolerance");
    }

    @Test
    void shouldCallItACollapseWhenDeliveryNeverRecovers() {
        Verdict v = judge(KEPT, 100, 100, 100);
        assertTrue(Double.isNaN(v.timeToClean()));
        assertTrue(v.collapsed());
        assertFalse(v.passed());
        assertTrue(judge(KEPT, 1000, 1000, 940).collapsed(), "the last interval below 95 % is not clean");
    }

    @Test
    void shouldFailOnABrokenOrUncheckedPromise() {
        assertFalse(judge(new PromiseTally(32, 1000, 990, 9, 0, 1, 0, 0, 1, 0), 1000, 1000, 1000).passed(), "neither");
        assertFalse(judge(new PromiseTally(32, 1000, 990, 9, 1, 0, 0, 0, 0, 0), 1000, 1000, 1000).passed(), "both");
        assertFalse(judge(new PromiseTally(32, 1000, 990, 10, 0, 0, 2, 0, 0, 0), 1000, 1000, 1000).passed());
        Verdict unchecked = judge(null, 1000, 1000, 1000);
        assertFalse(unchecked.promiseKept());
        assertFalse(unchecked.passed());
        assertFalse(unchecked.collapsed());
    }

    @Test
    void shouldNotJudgeTooShortAnAfterPhase() {
        Timeline timeline = Timeline.of(samples(2000, 2000, 1500, 1500, 1000),
                List.of(generator(2, T0), generator(3, T0)), 100);
        Verdict v = Verdict.of(timeline, KEPT, 0.05, 2);
        assertEquals(1, v.afterBins());
        assertFalse(v.enoughData());
        assertFalse(v.passed());
    }

    @Test
    void shouldRefuseBadLimits() {
        Timeline timeline = Timeline.of(samples(1, 1), List.of(generator(2, T0)), 100);
        assertThrows(IllegalArgumentException.class, () -> Verdict.of(timeline, KEPT, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> Verdict.of(timeline, KEPT, -0.1, 2));
        assertThrows(IllegalArgumentException.class, () -> Verdict.of(timeline, KEPT, 0.05, Double.NaN));
    }
}
