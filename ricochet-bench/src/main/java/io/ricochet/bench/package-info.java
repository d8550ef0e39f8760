/**
 * JMH micro-benchmarks and the experiment harness that reproduces the paper's figures in the simulator. Not built
 * yet; until then {@code scripts/experiments/core-results} runs the core figures through {@code ricochet simulate}.
 */
package io.ricochet.bench;
