/**
 * What the engine's two drivers, the simulator ({@code sim}) and the daemon ({@code daemon}), share around the
 * engine: recovery-latency accounting and latency distributions, and the reconciliation of membership views with an
 * engine and its sockets. Loss injection at a receiver's edge is
 * {@link io.ricochet.loss.LossInjector}. Neither driver imports the other.
 */
package io.ricochet.driver;
