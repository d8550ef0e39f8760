package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExactBurstLossModelTest {

    private static final int PACKETS = 4_000_000;

    @ParameterizedTest
    @CsvSource({"0.01, 4", "0.05, 4", "0.2, 4", "0.01, 10", "0.05, 10", "0.2, 10", "0.05, 1"})
    void shouldDropAtTheConfiguredRate(double rate, int burst) {
        LossTrace trace = LossTrace.of(new ExactBurstLossModel(rate, burst, 42), PACKETS);
        // Cycles: exactly b drops, then a good run of 1 + geometric on {0, 1, ...}: mean 1/q, variance (1-q)/q^2.
        double q = ExactBurstLossModel.burstStartProbability(rate, burst);
        double error = LossTrace.rateError(PACKETS, burst, 0, 1 / q, (1 - q) / (q * q));
        LossTrace.assertWithin(rate, trace.lossRate(), error, "loss rate");
    }

    @ParameterizedTest
    @CsvSource({"0.01, 4", "0.2, 4", "0.05, 10", "0.2, 10"})
    void shouldDropInBurstsOfExactlyTheBurstLength(double rate, int burst) {
        LossTrace trace = LossTrace.of(new ExactBurstLossModel(rate, burst, 44), PACKETS);
        assertTrue(trace.runs > 1000, "too few runs: " + trace.runs);
        // Bursts never abut: every run of drops is exactly one burst.
        assertEquals(java.util.Set.of(burst), trace.runLengths.keySet(), "run lengths");
        assertEquals(burst, trace.meanRun(), 1e-12, "mean run");
    }

    @Test
    void shouldUseTheStartProbabilityThatGivesTheTargetRate() {
        double q = ExactBurstLossModel.burstStartProbability(0.05, 4);
        assertEquals(0.05 / (4 * 0.95), q, 1e-15);
        assertEquals(4 * 0.95 / 0.05, 1 / q, 1e-9, "mean good run b(1-L)/L");
    }

    @Test
    void shouldRejectRatesTooHighForSeparatedBursts() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ExactBurstLossModel(0.6, 1, 1));
        assertTrue(e.getMessage().contains("L <= b/(b+1)"), e.getMessage());
    }

    @Test
    void shouldRepeatTheSequenceForTheSameSeed() {
        assertArrayEquals(LossTrace.sequence(new ExactBurstLossModel(0.2, 5, 7), 100_000),
                LossTrace.sequence(new ExactBurstLossModel(0.2, 5, 7), 100_000));
    }

    @Test
    void shouldDifferForDifferentSeeds() {
        assertFalse(Arrays.equals(LossTrace.sequence(new ExactBurstLossModel(0.2, 5, 7), 10_000),
                LossTrace.sequence(new ExactBurstLossModel(0.2, 5, 8), 10_000)));
    }

    @Test
    void shouldNeverDropAtRateZero() {
        assertEquals(0, LossTrace.of(new ExactBurstLossModel(0, 5, 1), 100_000).drops);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -3})
    void shouldRejectBurstsBelowOne(int burst) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ExactBurstLossModel(0.1, burst, 1));
        assertEquals("burst length must be an integer >= 1, got " + burst, e.getMessage());
    }

    @Test
    void shouldRejectRatesOutsideZeroToOne() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ExactBurstLossModel(1, 3, 1));
        assertEquals("loss rate must be a number in [0, 1), got 1.0", e.getMessage());
    }
}
