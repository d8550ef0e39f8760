package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LossSpecTest {

    private static final String USAGE =
            "use none, uniform:L, bursty:L:b or markov:L:m (L in [0,1), e.g. uniform:0.01)";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "none | none",
        "' NONE ' | none",
        "uniform:0.01 | uniform:0.01",
        "Uniform:.5 | uniform:0.5",
        "uniform:0 | uniform:0",
        "uniform:0.0 | uniform:0",
        "uniform:1e-5 | uniform:0.00001",
        "uniform:0.010 | uniform:0.01",
        "bursty:0.05:4 | bursty:0.05:4",
        "BURSTY:0.05:004 | bursty:0.05:4",
        "markov:0.01:2.50 | markov:0.01:2.5",
        "markov:0.2:3 | markov:0.2:3",
        "markov:0.5:1 | markov:0.5:1",
        "markov:0.123456789012345:1.5E1 | markov:0.123456789012345:15",
    })
    void shouldParseToTheCanonicalFormAndBack(String text, String canonical) {
        LossSpec spec = LossSpec.parse(text);
        assertEquals(canonical, spec.toString());
        assertEquals(spec, LossSpec.parse(spec.toString()));
        assertEquals(spec.hashCode(), LossSpec.parse(spec.toString()).hashCode());
    }

    @Test
    void shouldExposeKindRateAndBurst() {
        assertAll(
            () -> assertSpec(LossSpec.parse("none"), "none", 0, 1),
            () -> assertSpec(LossSpec.parse("uniform:0.01"), "uniform", 0.01, 1),
            () -> assertSpec(LossSpec.parse("bursty:0.05:4"), "bursty", 0.05, 4),
            () -> assertSpec(LossSpec.parse("markov:0.2:2.5"), "markov", 0.2, 2.5));
    }

    private static void assertSpec(LossSpec spec, String kind, double rate, double burst) {
        assertEquals(kind, spec.kind());
        assertEquals(rate, spec.rate());
        assertEquals(burst, spec.burst());
    }

    @Test
    void shouldMatchTheFactories() {
        assertSame(LossSpec.none(), LossSpec.parse("none"));
        assertEquals(LossSpec.uniform(0.01), LossSpec.parse("uniform:0.01"));
        assertEquals(LossSpec.bursty(0.05, 4), LossSpec.parse("bursty:0.05:4"));
        assertEquals(LossSpec.markov(0.2, 2.5), LossSpec.parse("markov:0.2:2.5"));
        assertEquals(LossSpec.uniform(0), LossSpec.uniform(-0.0));
    }

    @Test
    void shouldDistinguishDifferentSpecs() {
        assertNotEquals(LossSpec.uniform(0.01), LossSpec.uniform(0.02));
        assertNotEquals(LossSpec.bursty(0.05, 4), LossSpec.markov(0.05, 4));
        assertNotEquals(LossSpec.bursty(0.05, 4), LossSpec.bursty(0.05, 5));
        assertNotEquals(LossSpec.none(), LossSpec.uniform(0));
        assertNotEquals(LossSpec.none(), "none");
    }

    @Test
    void shouldReportNoneOnlyForSpecsThatNeverDrop() {
        assertTrue(LossSpec.parse("none").isNone());
        assertTrue(LossSpec.parse("uniform:0").isNone());
        assertTrue(LossSpec.parse("markov:0:3").isNone());
        assertFalse(LossSpec.parse("uniform:0.01").isNone());
        assertFalse(LossSpec.parse("bursty:0.01:3").isNone());
    }

    @Test
    void shouldBuildTheModelOfItsKindWithTheGivenSeed() {
        assertSameSequence(LossModel.none(), LossSpec.parse("none").newModel(3));
        assertSameSequence(new UniformLossModel(0.1, 3), LossSpec.parse("uniform:0.1").newModel(3));
        assertSameSequence(new ExactBurstLossModel(0.1, 4, 3), LossSpec.parse("bursty:0.1:4").newModel(3));
        assertSameSequence(new MarkovLossModel(0.1, 2.5, 3), LossSpec.parse("markov:0.1:2.5").newModel(3));
    }

    @Test
    void shouldBuildIndependentModels() {
        LossSpec spec = LossSpec.parse("markov:0.2:3");
        LossModel first = spec.newModel(11);
        LossTrace.sequence(first, 1000);
        assertSameSequence(spec.newModel(11), spec.newModel(11));
    }

    private static void assertSameSequence(LossModel expected, LossModel actual) {
        assertArrayEquals(LossTrace.sequence(expected, 20_000), LossTrace.sequence(actual, 20_000));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "foo:0.1 | loss model 'foo:0.1' is not recognised; " + USAGE,
        "'' | loss model '' is not recognised; " + USAGE,
        "uniform0.1 | loss model 'uniform0.1' is not recognised; " + USAGE,
        "uniform | loss model 'uniform' needs 1 parameter (uniform:L); " + USAGE,
        "uniform:0.1:2 | loss model 'uniform:0.1:2' needs 1 parameter (uniform:L); " + USAGE,
        "bursty:0.1 | loss model 'bursty:0.1' needs 2 parameters (bursty:L:b); " + USAGE,
        "markov:0.1:2: | loss model 'markov:0.1:2:' needs 2 parameters (markov:L:m); " + USAGE,
        "none:0.1 | loss model 'none:0.1' takes no parameters (none); " + USAGE,
        "uniform:1.5 | loss rate '1.5' in 'uniform:1.5' must be a number in [0, 1)",
        "uniform:1 | loss rate '1' in 'uniform:1' must be a number in [0, 1)",
        "uniform:-0.1 | loss rate '-0.1' in 'uniform:-0.1' must be a number in [0, 1)",
        "uniform:abc | loss rate 'abc' in 'uniform:abc' must be a number in [0, 1)",
        "uniform:NaN | loss rate 'NaN' in 'uniform:NaN' must be a number in [0, 1)",
        "uniform: | loss rate '' in 'uniform:' must be a number in [0, 1)",
        "uniform:1% | loss rate '1%' in 'uniform:1%' must be a number in [0, 1)",
        "bursty:2:4 | loss rate '2' in 'bursty:2:4' must be a number in [0, 1)",
        "bursty:0.1:0 | burst length '0' in 'bursty:0.1:0' must be an integer >= 1",
        "bursty:0.1:2.5 | burst length '2.5' in 'bursty:0.1:2.5' must be an integer >= 1",
        "bursty:0.1:-3 | burst length '-3' in 'bursty:0.1:-3' must be an integer >= 1",
        "bursty:0.1:+3 | burst length '+3' in 'bursty:0.1:+3' must be an integer >= 1",
        "bursty:0.1:99999999999 | burst length '99999999999' in 'bursty:0.1:99999999999' must be an integer >= 1",
        "markov:0.1:0.5 | mean burst length '0.5' in 'markov:0.1:0.5' must be a number >= 1",
        "markov:0.1:x | mean burst length 'x' in 'markov:0.1:x' must be a number >= 1",
        "markov:0.1:Infinity | mean burst length 'Infinity' in 'markov:0.1:Infinity' must be a number >= 1",
        "markov:0.1:1e999 | mean burst length '1e999' in 'markov:0.1:1e999' must be a number >= 1",
        "markov:0.8:2 | loss rate 0.8 in 'markov:0.8:2' is too high for mean burst length 2:"
            + " the Gilbert model needs L <= m/(m+1) = 0.6666666666666666",
    })
    void shouldExplainWhatIsWrong(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LossSpec.parse(text));
        assertEquals(message, e.getMessage());
    }

    @Test
    void shouldExplainAMissingSpec() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LossSpec.parse(null));
        assertEquals("loss model is missing; " + USAGE, e.getMessage());
    }

    @Test
    void shouldValidateFactoryArguments() {
        assertAll(
            () -> assertThrows(IllegalArgumentException.class, () -> LossSpec.uniform(1)),
            () -> assertThrows(IllegalArgumentException.class, () -> LossSpec.bursty(0.1, 0)),
            () -> assertThrows(IllegalArgumentException.class, () -> LossSpec.markov(0.1, 0.5)),
            () -> assertThrows(IllegalArgumentException.class, () -> LossSpec.markov(0.9, 1)));
    }
}
