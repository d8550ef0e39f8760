package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UniformLossModelTest {

    private static final int PACKETS = 2_000_000;

    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.05, 0.2})
    void shouldDropAtTheConfiguredRate(double rate) {
        LossTrace trace = LossTrace.of(new UniformLossModel(rate, 42), PACKETS);
        LossTrace.assertWithin(rate, trace.lossRate(), Math.sqrt(rate * (1 - rate) / PACKETS), "loss rate");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.05, 0.2})
    void shouldHaveGeometricRunsOfMeanOneOverOneMinusRate(double rate) {
        LossTrace trace = LossTrace.of(new UniformLossModel(rate, 43), PACKETS);
        double runVariance = rate / ((1 - rate) * (1 - rate));
        LossTrace.assertWithin(1 / (1 - rate), trace.meanRun(), trace.meanRunError(runVariance), "mean run");
    }

    @Test
    void shouldRepeatTheSequenceForTheSameSeed() {
        assertArrayEquals(LossTrace.sequence(new UniformLossModel(0.2, 7), 100_000),
                LossTrace.sequence(new UniformLossModel(0.2, 7), 100_000));
    }

    @Test
    void shouldDifferForDifferentSeeds() {
        assertFalse(Arrays.equals(LossTrace.sequence(new UniformLossModel(0.2, 7), 10_000),
                LossTrace.sequence(new UniformLossModel(0.2, 8), 10_000)));
    }

    @Test
    void shouldNeverDropAtRateZero() {
        assertEquals(0, LossTrace.of(new UniformLossModel(0, 1), 100_000).drops);
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 1, 1.5, Double.NaN, Double.POSITIVE_INFINITY})
    void shouldRejectRatesOutsideZeroToOne(double rate) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UniformLossModel(rate, 1));
        assertTrue(e.getMessage().contains("loss rate must be a number in [0, 1), got " + rate), e.getMessage());
    }
}
