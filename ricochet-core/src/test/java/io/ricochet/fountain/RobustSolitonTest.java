package io.ricochet.fountain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RobustSolitonTest {
    @Test
    void shouldBeADistributionOverOneToK() {
        RobustSoliton d = new RobustSoliton(10_000, 0.05, 0.5);
        double sum = 0;
        for (int i = 1; i <= d.k(); i++) {
            assertTrue(d.probability(i) >= 0, "degree " + i);
            sum += d.probability(i);
        }
        assertEquals(1.0, sum, 1e-9);
        assertTrue(d.beta() > 1, "tau adds mass to the ideal soliton: " + d.beta());
        assertEquals(1, d.degree(0.0));
        assertEquals(d.k(), d.degree(Math.nextDown(1.0)) >= 1 ? d.degree(Math.nextDown(1.0)) : -1);
    }

    @Test
    void shouldPutTheIdealSolitonsShapePlusTauAndTheSpike() {
        int k = 10_000;
        double c = 0.05;
        double delta = 0.5;
        RobustSoliton d = new RobustSoliton(k, c, delta);
        double r = c * Math.log(k / delta) * Math.sqrt(k);
        int spike = (int) Math.floor(k / r);
        // Degree 2 carries the ideal soliton's 1/2 plus tau(2) = R/(2k), over beta.
        assertEquals((0.5 + r / (2.0 * k)) / d.beta(), d.probability(2), 1e-12);
        assertEquals((1.0 / ((double) spike * (spike - 1)) + r * Math.log(r / delta) / k) / d.beta(),
                d.probability(spike), 1e-12);
        assertEquals(1.0 / ((double) (spike + 1) * spike) / d.beta(), d.probability(spike + 1), 1e-12);
    }

    @Test
    void shouldDrawDegreesByTheirProbabilities() {
        RobustSoliton d = new RobustSoliton(1_000, 0.1, 0.5);
        int[] counts = new int[d.k() + 1];
        int draws = 1_000_000;
        for (int i = 0; i < draws; i++) {
            counts[d.degree((i + 0.5) / draws)]++;
        }
        for (int degree = 1; degree <= 5; degree++) {
            assertEquals(d.probability(degree), counts[degree] / (double) draws, 1e-5, "degree " + degree);
        }
    }

    @Test
    void shouldWorkForTheSmallestCodeAndRefuseNonsense() {
        RobustSoliton one = new RobustSoliton(1, 0.1, 0.5);
        assertEquals(1, one.degree(0.7));
        assertThrows(IllegalArgumentException.class, () -> new RobustSoliton(0, 0.1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new RobustSoliton(10, 0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new RobustSoliton(10, 0.1, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new RobustSoliton(10, Double.NaN, 0.5));
    }
}
