package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LossModelTest {

    @Test
    void shouldNeverDropWithNone() {
        LossTrace trace = LossTrace.of(LossModel.none(), 1_000_000);
        assertEquals(0, trace.drops);
    }
}
