/**
 * The system tests (*SystemTest), the load generator and sink of the daemon throughput benchmark (BenchMain);
 * JMH micro-benchmarks and the experiment harness of the paper's figures are to come.
 */
package io.ricochet.bench;
