/**
 * Latency accounting that the engine's two drivers, the daemon ({@code daemon}) and the simulator ({@code sim}),
 * share: per-loss drop and discovery times ({@link io.ricochet.latency.RecoveryLatencies}) and the distributions
 * they give ({@link io.ricochet.latency.LatencyStats}), which the stats, the CLI and the workload reports read.
 */
package io.ricochet.latency;
