package io.ricochet.sim;

/**
 * What a perturbed node's sleeps did in one run.
 *
 * @param perturbation the sleep pattern
 * @param held         frames that waited in its socket buffer and were processed on waking
 * @param overflowed   frames dropped because the buffer was full
 * @param sendsSkipped sends its application would have made while it slept
 */
public record PerturbationReport(Perturbation perturbation, long held, long overflowed, long sendsSkipped) {
}
