/**
 * The bench: JMH micro-benchmarks ({@code jmh}), the load generator and sink of the daemon throughput benchmark
 * ({@code load}), all run by {@link io.ricochet.bench.BenchMain}; the system tests live in the test sources. The
 * experiment harness of the paper's figures is to come.
 */
package io.ricochet.bench;
