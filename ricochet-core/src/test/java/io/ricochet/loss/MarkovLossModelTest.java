package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MarkovLossModelTest {

    private static final int PACKETS = 4_000_000;

    @ParameterizedTest
    @CsvSource({"0.01, 1", "0.05, 1", "0.2, 1", "0.01, 2.5", "0.05, 2.5", "0.2, 2.5", "0.01, 10", "0.2, 10",
        "0.5, 1"})
    void shouldDropAtTheConfiguredRate(double rate, double meanBurst) {
        LossTrace trace = LossTrace.of(new MarkovLossModel(rate, meanBurst, 42), PACKETS);
        // Cycles: bad run geometric on {1, 2, ...} of mean m, then good run geometric on {1, 2, ...} of mean 1/p.
        double p = rate / (meanBurst * (1 - rate));
        double error = LossTrace.rateError(PACKETS, meanBurst, meanBurst * (meanBurst - 1), 1 / p, (1 - p) / (p * p));
        LossTrace.assertWithin(rate, trace.lossRate(), error, "loss rate");
    }

    @ParameterizedTest
    @CsvSource({"0.01, 2.5", "0.05, 2.5", "0.2, 2.5", "0.01, 10", "0.05, 10", "0.2, 10"})
    void shouldHaveTheConfiguredMeanBurst(double rate, double meanBurst) {
        LossTrace trace = LossTrace.of(new MarkovLossModel(rate, meanBurst, 43), PACKETS);
        assertTrue(trace.runs > 1000, "too few runs: " + trace.runs);
        double runVariance = meanBurst * (meanBurst - 1);
        LossTrace.assertWithin(meanBurst, trace.meanRun(), trace.meanRunError(runVariance), "mean burst");
    }

    @Test
    void shouldDropSinglePacketsWhenTheMeanBurstIsOne() {
        LossTrace trace = LossTrace.of(new MarkovLossModel(0.2, 1, 44), PACKETS);
        assertEquals(Map.of(1, trace.runs), trace.runLengths);
    }

    @Test
    void shouldAlternateAtTheHighestRateForMeanBurstOne() {
        boolean[] drops = LossTrace.sequence(new MarkovLossModel(0.5, 1, 45), 1000);
        for (int i = 0; i < drops.length; i++) {
            assertEquals(i % 2 == 1, drops[i], "packet " + i);
        }
    }

    @Test
    void shouldStartInTheGoodState() {
        for (long seed = 0; seed < 1000; seed++) {
            assertFalse(new MarkovLossModel(0.9, 100, seed).shouldDrop(), "seed " + seed);
        }
    }

    @Test
    void shouldRepeatTheSequenceForTheSameSeed() {
        assertArrayEquals(LossTrace.sequence(new MarkovLossModel(0.2, 3, 7), 100_000),
                LossTrace.sequence(new MarkovLossModel(0.2, 3, 7), 100_000));
    }

    @Test
    void shouldDifferForDifferentSeeds() {
        assertFalse(Arrays.equals(LossTrace.sequence(new MarkovLossModel(0.2, 3, 7), 10_000),
                LossTrace.sequence(new MarkovLossModel(0.2, 3, 8), 10_000)));
    }

    @Test
    void shouldNeverDropAtRateZero() {
        assertEquals(0, LossTrace.of(new MarkovLossModel(0, 3, 1), 100_000).drops);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0, -1, Double.NaN, Double.POSITIVE_INFINITY})
    void shouldRejectMeanBurstsThatAreNotFiniteAndAtLeastOne(double meanBurst) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new MarkovLossModel(0.1, meanBurst, 1));
        assertEquals("mean burst length must be a finite number >= 1, got " + meanBurst, e.getMessage());
    }

    @Test
    void shouldRejectRatesUnreachableWithTheMeanBurst() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new MarkovLossModel(0.8, 2, 1));
        assertEquals("loss rate 0.8 is unreachable with mean burst length 2.0: the Gilbert model needs"
                + " rate <= m/(m+1) = 0.6666666666666666", e.getMessage());
    }

    @Test
    void shouldRejectRatesOutsideZeroToOne() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new MarkovLossModel(-0.5, 2, 1));
        assertEquals("loss rate must be a number in [0, 1), got -0.5", e.getMessage());
    }
}
