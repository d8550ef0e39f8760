/**
 * The Prometheus endpoints of the daemon, the GMS and the failure detector: where one listens ({@link
 * io.ricochet.metrics.MetricsBind}, off by default, loopback unless told otherwise), the HTTP server that serves it
 * ({@link io.ricochet.metrics.MetricsEndpoint}), the picocli options of the GMS and the detector ({@link
 * io.ricochet.metrics.MetricsOptions}) and the one builder that turns a server's counters and gauges into
 * Prometheus samples at scrape time ({@link io.ricochet.metrics.Readings}). Each server reads its own state on its
 * own thread and hands the values here; this package knows none of them.
 */
package io.ricochet.metrics;
