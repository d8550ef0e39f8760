package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;

/**
 * Statistics of a loss model's output over a run of packets, plus the standard errors the tests compare them with.
 *
 * <p>A "run" is a maximal sequence of consecutive drops. Tolerances are {@value #Z} standard errors.
 */
final class LossTrace {

    /** Number of standard errors allowed between a measurement and its expectation. */
    static final double Z = 5;

    final long packets;
    final long drops;
    /** Run length to number of runs of that length; a run cut off by the end of the trace is ignored. */
    final Map<Integer, Long> runLengths;
    final long runs;
    final long runDrops;

    private LossTrace(long packets, long drops, Map<Integer, Long> runLengths) {
        this.packets = packets;
        this.drops = drops;
        this.runLengths = runLengths;
        this.runs = runLengths.values().stream().mapToLong(Long::longValue).sum();
        this.runDrops = runLengths.entrySet().stream().mapToLong(e -> e.getKey() * e.getValue()).sum();
    }

    /** Consults {@code model} for {@code packets} packets. */
    static LossTrace of(LossModel model, long packets) {
        long drops = 0;
        int run = 0;
        Map<Integer, Long> runLengths = new TreeMap<>();
        for (long i = 0; i < packets; i++) {
            if (model.shouldDrop()) {
                drops++;
                run++;
            } else if (run > 0) {
                runLengths.merge(run, 1L, Long::sum);
                run = 0;
            }
        }
        return new LossTrace(packets, drops, runLengths);
    }

    /** The first {@code packets} decisions of {@code model}. */
    static boolean[] sequence(LossModel model, int packets) {
        boolean[] drops = new boolean[packets];
        for (int i = 0; i < packets; i++) {
            drops[i] = model.shouldDrop();
        }
        return drops;
    }

    double lossRate() {
        return (double) drops / packets;
    }

    double meanRun() {
        return (double) runDrops / runs;
    }

    /**
     * Standard error of the measured loss rate of an alternating renewal process (i.i.d. cycles of a loss period of
     * mean {@code meanOn}, variance {@code varOn}, then a delivery period of mean {@code meanOff}, variance
     * {@code varOff}) observed for {@code packets} packets. The ratio-estimator (delta method) variance is
     * {@code ((1-L)^2 varOn + L^2 varOff) / (cycles * cycleMean^2)} with {@code cycles = packets / cycleMean}.
     */
    static double rateError(long packets, double meanOn, double varOn, double meanOff, double varOff) {
        double cycle = meanOn + meanOff;
        double rate = meanOn / cycle;
        double variance = (1 - rate) * (1 - rate) * varOn + rate * rate * varOff;
        return Math.sqrt(variance / (packets * cycle));
    }

    /** Standard error of the mean of this trace's runs, whose lengths have variance {@code runVariance}. */
    double meanRunError(double runVariance) {
        return Math.sqrt(runVariance / runs);
    }

    /** Asserts that {@code measured} is within {@link #Z} standard errors of {@code expected}. */
    static void assertWithin(double expected, double measured, double standardError, String what) {
        assertEquals(expected, measured, Z * standardError + 1e-12,
                what + ": expected " + expected + " +/- " + Z + " x " + standardError);
    }
}
