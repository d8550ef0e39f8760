package io.ricochet.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RateOfFireLineTest {

    @Test
    void shouldReadBackTheFiguresOfTheLineItWrites() {
        RateOfFireLine line = new RateOfFireLine(8, 3.5, 2, "target met (loss 0.100 %, LEC 91.0 %, node's evidence)");

        assertEquals("r 8, c 3.5, stagger 2: target met (loss 0.100 %, LEC 91.0 %, node's evidence)", line.text());
        assertEquals(Optional.of(line), RateOfFireLine.parse(line.text()));
    }

    @Test
    void shouldReadNothingFromALineOfAnotherFormat() {
        assertEquals(Optional.empty(), RateOfFireLine.parse("c 3.5"));
        assertEquals(Optional.empty(), RateOfFireLine.parse("r 8, c x, stagger 1: why"));
        assertEquals(Optional.empty(), RateOfFireLine.parse("r 99999999999, c 3.0, stagger 1: too long a number"));
        assertEquals(Optional.empty(), RateOfFireLine.parse(null));
    }
}
