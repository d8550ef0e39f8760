package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The phi computation and the window it is fitted to: exact arithmetic, no clock. */
class PhiAccrualTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldMatchTheNormalTailAtKnownPoints() {
        // -log10 of the normal upper tail: 0.5 at the mean, 0.1587 one deviation past it, 0.02275 two past it.
        assertEquals(-Math.log10(0.5), PhiAccrual.phi(0), 1e-12);
        assertEquals(-Math.log10(0.158655), PhiAccrual.phi(1), 0.01);
        assertEquals(-Math.log10(0.0227501), PhiAccrual.phi(2), 0.01);
        assertTrue(PhiAccrual.phi(-3) < 0.001, "well before the mean there is no suspicion");
    }

    @Test
    void shouldGrowWithoutOverflowHoweverLongTheSilence() {
        double[] ys = {-1e9, -1e6, -40, -10, -3, -1, 0, 1, 3, 10, 40, 1e3, 1e6, 1e9};
        double previous = -1;
        for (double y : ys) {
            double phi = PhiAccrual.phi(y);
            assertTrue(Double.isFinite(phi) && phi >= 0, "y=" + y + " phi=" + phi);
            assertTrue(phi >= previous, "monotone at y=" + y);
            previous = phi;
        }
        assertTrue(PhiAccrual.phi(1e6) > 1e15);
    }

    @Test
    void shouldReachThresholdEightAboutFivePointTwoDeviationsPastTheMean() {
        // The logistic tail reaches 10^-8 at y ~= 5.226 (the exact normal tail at 5.612).
        assertTrue(PhiAccrual.phi(5.2) < 8, String.valueOf(PhiAccrual.phi(5.2)));
        assertTrue(PhiAccrual.phi(5.25) >= 8, String.valueOf(PhiAccrual.phi(5.25)));
    }

    @Test
    void shouldAddTheAcceptablePauseAndFloorTheDeviation() {
        HeartbeatHistory steady = new HeartbeatHistory(10, 100 * MS);
        for (int i = 0; i < 9; i++) {
            steady.add(100 * MS);
        }
        assertEquals(0.0, steady.stdDevNs());
        PhiParameters parameters = new PhiParameters(8, 1_000 * MS, 100 * MS);

        // mean 100 + pause 1000 = 1100 ms, deviation floored to 100 ms: y = (elapsed - 1100) / 100.
        assertEquals(PhiAccrual.phi(0), PhiAccrual.phi(1_100 * MS, steady, parameters), 1e-12);
        assertEquals(PhiAccrual.phi(5), PhiAccrual.phi(1_600 * MS, steady, parameters), 1e-12);
        assertEquals(PhiAccrual.phi(-11), PhiAccrual.phi(0, steady, parameters), 1e-12);
    }

    @Test
    void shouldKeepTheLastSamplesOfTheWindow() {
        HeartbeatHistory history = new HeartbeatHistory(4, 100 * MS);
        assertEquals(1, history.size());
        assertEquals(100.0 * MS, history.meanNs());

        history.add(200 * MS);
        history.add(300 * MS);
        history.add(400 * MS);
        assertEquals(250.0 * MS, history.meanNs());
        assertEquals(Math.sqrt(12_500) * MS, history.stdDevNs(), 1);

        history.add(500 * MS);
        history.add(500 * MS);
        assertEquals(4, history.size());
        assertEquals(425.0 * MS, history.meanNs(), "the first two samples are forgotten");
    }

    @Test
    void shouldRefuseBadInput() {
        assertThrows(IllegalArgumentException.class, () -> new HeartbeatHistory(0, MS));
        assertThrows(IllegalArgumentException.class, () -> new HeartbeatHistory(1, -1));
        assertThrows(IllegalArgumentException.class, () -> new PhiParameters(0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PhiParameters(Double.NaN, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PhiParameters(Double.POSITIVE_INFINITY, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PhiParameters(8, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PhiParameters(8, 0, 0));
    }

    @Test
    void shouldCheckSendTimesOfTheRememberedRoundsOnly() {
        RoundLog log = new RoundLog(3);
        assertTrue(!log.remembers(1) && !log.remembers(0));
        for (long round = 1; round <= 5; round++) {
            log.record(round, round * 100);
        }

        assertTrue(log.sentAt(5, 500) && log.sentAt(4, 400) && log.sentAt(3, 300));
        assertTrue(!log.sentAt(5, 501), "another send time: another run's round 5");
        assertTrue(!log.remembers(2) && !log.sentAt(2, 200), "too old to check");
        assertTrue(!log.remembers(6) && !log.remembers(0) && !log.remembers(-1));
        assertThrows(IllegalArgumentException.class, () -> log.record(7, 700));
    }
}
